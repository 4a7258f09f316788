import * as domain from '@app/domain';
import { fromStoreStreamName, legacyStreamName, toStoreStreamName } from './stream-names';

/** Every stream kind the domain defines: its exported `<kind>Stream(id)` helpers. */
const kinds = Object.entries(domain).filter(
  (entry): entry is [string, (id: string) => string] => /Stream$/.test(entry[0]) && typeof entry[1] === 'function',
);

/** The category EventStoreDB's `$by_category` files a stream under: its name up to the first '-'. */
const category = (name: string) => name.slice(0, name.indexOf('-'));

describe('EventStoreDB stream names', () => {
  it('knows the domain’s stream kinds', () => {
    expect(kinds.map(([name]) => name).sort()).toEqual([
      'jobStream',
      'jobTypeStream',
      'projectJobsStream',
      'projectStream',
      'webhookStream',
      'workspaceStream',
    ]);
  });

  it.each(kinds)('%s: a name whose first "-" ends its kind, and the domain’s name back from it', (_, kind) => {
    for (const id of ['prj_01JD5Y8V4N2Q', 'b6f1e0a4-3c1d-4c6e-9a3f-2a7d9c8e1f00']) {
      const name = kind(id);
      const stored = toStoreStreamName(name)!;
      expect(stored.endsWith(`-${id}`)).toBe(true);
      expect(stored.slice(0, -id.length - 1)).not.toContain('-');
      expect(fromStoreStreamName(stored)).toBe(name);
    }
  });

  it('gives every kind a category of its own', () => {
    const categories = kinds.map(([, kind]) => category(toStoreStreamName(kind('x_1'))!));
    expect(new Set(categories).size).toBe(kinds.length);
    expect(categories.sort()).toEqual(['job', 'jobType', 'project', 'projectJobs', 'webhook', 'workspace']);
  });

  it('renames the two-word kinds only', () => {
    expect(toStoreStreamName(domain.jobTypeStream('jt_1'))).toBe('jobType-jt_1');
    expect(toStoreStreamName(domain.projectJobsStream('prj_1'))).toBe('projectJobs-prj_1');
    expect(toStoreStreamName(domain.jobStream('job_1'))).toBe('job-job_1');
    expect(toStoreStreamName(domain.projectStream('prj_1'))).toBe('project-prj_1');
    expect(fromStoreStreamName('jobType-jt_1')).toBe('job-type-jt_1');
    expect(fromStoreStreamName('projectJobs-prj_1')).toBe('project-jobs-prj_1');
    expect(fromStoreStreamName('project-prj_1')).toBe('project-prj_1');
    expect(fromStoreStreamName('$ce-project')).toBe('$ce-project');
  });

  it('passes names of other kinds through both ways (the contract suites’ streams)', () => {
    expect(toStoreStreamName('test-b6f1e0a4-3c1d')).toBe('test-b6f1e0a4-3c1d');
    expect(fromStoreStreamName('test-b6f1e0a4-3c1d')).toBe('test-b6f1e0a4-3c1d');
  });

  it('reads a stream an earlier release wrote under the domain’s name as the same stream', () => {
    // Written before: `job-type-jt_1` in the store; read back, it is the domain's `job-type-jt_1`.
    expect(fromStoreStreamName('job-type-jt_1')).toBe('job-type-jt_1');
    expect(legacyStreamName('job-type-jt_1')).toBe('job-type-jt_1');
    expect(legacyStreamName('project-jobs-prj_1')).toBe('project-jobs-prj_1');
    expect(legacyStreamName('project-prj_1')).toBeNull();
  });

  it('refuses a name that would read back as another stream', () => {
    expect(toStoreStreamName('jobType-jt_1')).toBeNull();
    expect(toStoreStreamName('projectJobs-prj_1')).toBeNull();
  });
});
