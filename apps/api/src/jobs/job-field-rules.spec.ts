import { JOB_MESSAGES, STATUS_MESSAGE } from '@app/domain';
import { refusal } from '../http/validation.spec-helper';
import { CreateJobDto } from './create-job/create-job.dto';
import { JOB_FIELDS } from './job-field-rules';
import { UpdateJobDto } from './update-job/update-job.dto';

const valid = { name: 'Blade inspection', type: 'wind_turbine', job_pattern: 'one_time', start_date: '2030-01-01' };

describe('job fields, declared once for create and update', () => {
  it('lists every declared field in both requests, and nothing else', () => {
    const declared = Object.keys(JOB_FIELDS).sort();
    expect(Object.keys(new CreateJobDto()).sort()).toEqual(declared);
    expect(Object.keys(new UpdateJobDto()).sort()).toEqual(declared);
  });

  it('requires on create what update leaves optional', () => {
    expect(refusal(CreateJobDto, {})).toBe(JOB_MESSAGES.nameRequired);
    expect(refusal(CreateJobDto, { ...valid, start_date: undefined })).toBe(JOB_MESSAGES.startDateRequired);
    expect(refusal(CreateJobDto, { ...valid, job_pattern: undefined })).toBe(JOB_MESSAGES.jobPattern);
    expect(refusal(CreateJobDto, valid)).toBeUndefined();
    expect(refusal(UpdateJobDto, {})).toBeUndefined();
  });

  it('reads null as "not given" on create, and refuses it on update for the fields that cannot be cleared', () => {
    expect(refusal(CreateJobDto, { ...valid, description: null, priority: null, status: null })).toBeUndefined();
    expect(refusal(UpdateJobDto, { description: null })).toBe('description must be a string');
    expect(refusal(UpdateJobDto, { priority: null })).toBe(JOB_MESSAGES.priority);
    expect(refusal(UpdateJobDto, { name: null })).toBe('name must be a string');
    expect(refusal(CreateJobDto, { ...valid, name: null })).toBe(JOB_MESSAGES.nameRequired);
  });

  it('lets null clear the nullable fields on update', () => {
    const cleared = { end_date: null, latitude: null, longitude: null, external_id: null, capture_types: null };
    expect(refusal(UpdateJobDto, { ...cleared, recurring_interval: null, weeks_of_month: null })).toBeUndefined();
  });

  it('checks a field the same way in both requests', () => {
    const long = 'x'.repeat(101);
    expect(refusal(CreateJobDto, { ...valid, name: long })).toBe(JOB_MESSAGES.nameLength);
    expect(refusal(UpdateJobDto, { name: long })).toBe(JOB_MESSAGES.nameLength);
    expect(refusal(CreateJobDto, { ...valid, capture_types: ['lidar_scan', 'lidar_scan'] })).toBe(
      JOB_MESSAGES.captureTypesUnique,
    );
    expect(refusal(UpdateJobDto, { capture_types: ['lidar_scan', 'lidar_scan'] })).toBe(
      JOB_MESSAGES.captureTypesUnique,
    );
  });

  it("reports the first failure in each request's own field order", () => {
    // Create lists type before status; update lists status before type.
    const body = { type: 7, status: 'unknown' };
    expect(refusal(CreateJobDto, { ...valid, ...body })).toBe('type must be a string');
    expect(refusal(UpdateJobDto, body)).toBe(STATUS_MESSAGE);
  });
});
