import { isPredefinedJobType, PREDEFINED_JOB_TYPES } from './job-type.catalogue';

const PAGE_SIZE = 50;

describe('predefined job type catalogue', () => {
  it('contains the predefined types docs/api.md names', () => {
    for (const id of ['drone_inspection', 'thermal_inspection', '3d_mapping', 'wind_turbine', 'cell_tower']) {
      expect(isPredefinedJobType(id)).toBe(true);
    }
    expect(isPredefinedJobType('jbt_custom')).toBe(false);
  });

  it('has unique readable ids, names of 1..50 characters and icon names of at most 20', () => {
    const ids = PREDEFINED_JOB_TYPES.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const type of PREDEFINED_JOB_TYPES) {
      expect(type.id).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
      expect(type.name.length).toBeGreaterThanOrEqual(1);
      expect(type.name.length).toBeLessThanOrEqual(50);
      expect(type.icon).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(type.icon.length).toBeLessThanOrEqual(20);
    }
  });

  it('fits on the first page of GET /job-types, which the list pagination relies on', () => {
    expect(PREDEFINED_JOB_TYPES.length).toBeLessThan(PAGE_SIZE);
  });
});
