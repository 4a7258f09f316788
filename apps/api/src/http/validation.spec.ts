import { JOB_MESSAGES, PROJECT_MESSAGES as M, STATUS_MESSAGE, WEBHOOK_MESSAGES, WORKSPACE_MESSAGES } from '@app/domain';
import { UpdateWorkspaceDto } from '../admin/update-workspace/update-workspace.dto';
import { CreateJobTypeDto } from '../job-types/create-job-type/create-job-type.dto';
import { CreateJobDto } from '../jobs/create-job/create-job.dto';
import { UpdateJobDto } from '../jobs/update-job/update-job.dto';
import { CreateProjectDto } from '../projects/create-project/create-project.dto';
import { UpdateProjectDto } from '../projects/update-project/update-project.dto';
import { CreateWebhookDto } from '../webhooks/create-webhook/create-webhook.dto';
import { UpdateWebhookDto } from '../webhooks/update-webhook/update-webhook.dto';
import { BODY_NOT_OBJECT } from './validation';
import { accepted, refusal } from './validation.spec-helper';

const project = { name: 'Roof survey', description: 'North wing', status: 'planned', start_date: '2026-06-01' };

describe('RequestValidationPipe: the body as the handler gets it', () => {
  it('given a valid body, hands over an instance of the DTO with its fields', async () => {
    const dto = (await accepted(CreateProjectDto, { ...project })) as CreateProjectDto;
    expect(dto).toBeInstanceOf(CreateProjectDto);
    expect(dto).toMatchObject(project);
    expect(dto.end_date).toBeUndefined();
  });

  it('reads no body as an empty object, and refuses any other JSON value than an object', async () => {
    expect(await refusal(UpdateProjectDto, undefined)).toBeUndefined();
    for (const body of [null, 'x', 1, true, [], [project]])
      expect(await refusal(UpdateProjectDto, body)).toBe(BODY_NOT_OBJECT);
  });

  it('refuses an unknown field by name, after the failures of the known ones', async () => {
    expect(await refusal(CreateProjectDto, { ...project, extra: 1 })).toBe('extra is not an allowed field');
    expect(await refusal(CreateProjectDto, { extra: 1, name: 'x' })).toBe(M.startDateRequired);
  });

  it('given a `__proto__` field (as JSON.parse makes it: an own property), refuses it by name and changes no prototype', async () => {
    // The HTTP layer refuses such a body before the pipe (onProtoPoisoning, bootstrap.ts); this is the second line.
    const body = JSON.parse(
      `{"name":"Roof","description":"d","status":"planned","start_date":"2026-06-01","__proto__":{"polluted":true}}`,
    ) as object;
    expect(Object.prototype.hasOwnProperty.call(body, '__proto__')).toBe(true);
    expect(await refusal(CreateProjectDto, body)).toBe('__proto__ is not an allowed field');
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(CreateProjectDto.prototype)).toBe(Object.prototype);
  });

  it('given a `constructor` or `prototype` field, refuses it by name', async () => {
    expect(await refusal(CreateProjectDto, { ...project, constructor: 'x' })).toBe(
      'constructor is not an allowed field',
    );
    expect(await refusal(CreateProjectDto, { ...project, prototype: {} })).toBe('prototype is not an allowed field');
  });

  it("answers a deeply nested value with its field's own message", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(await refusal(CreateJobTypeDto, { name: 'x', icon: deep })).toBe('icon must be a string');
    expect(await refusal(CreateJobTypeDto, deep)).toBe('name is required');
    expect(await refusal(CreateJobTypeDto, { name: 'x', icon: { constructor: {} } })).toBe('icon must be a string');
    expect(await refusal(CreateJobTypeDto, { name: 'x', extra: [{ constructor: {} }] })).toBe(
      'extra is not an allowed field',
    );
  });
});

describe('project DTOs', () => {
  const valid = { name: 'Dam inspection', start_date: '2030-01-01', description: '', status: 'planned' };

  it('requires on create what update leaves optional, in the order of the messages', async () => {
    expect(await refusal(CreateProjectDto, {})).toBe(M.nameRequired);
    expect(await refusal(CreateProjectDto, { name: 'x' })).toBe(M.startDateRequired);
    expect(await refusal(CreateProjectDto, { ...valid, description: undefined })).toBe(M.descriptionRequired);
    expect(await refusal(CreateProjectDto, { ...valid, status: undefined })).toBe(STATUS_MESSAGE);
    expect(await refusal(CreateProjectDto, valid)).toBeUndefined();
    expect(await refusal(UpdateProjectDto, {})).toBeUndefined();
  });

  it('lets create send an empty description, and update not', async () => {
    expect(await refusal(CreateProjectDto, { ...valid, description: '' })).toBeUndefined();
    expect(await refusal(UpdateProjectDto, { description: '' })).toBe(M.descriptionLength);
  });

  it('takes laanc_number on update only, where null clears it', async () => {
    expect(await refusal(CreateProjectDto, { ...valid, laanc_number: 'L-1' })).toBe(
      'laanc_number is not an allowed field',
    );
    expect(await refusal(UpdateProjectDto, { laanc_number: null })).toBeUndefined();
    expect(await refusal(UpdateProjectDto, { laanc_number: 'x'.repeat(101) })).toBe(M.laancNumberLength);
  });

  it('requires other_status_reason with status other, and checks it whenever given', async () => {
    expect(await refusal(UpdateProjectDto, { status: 'other' })).toBe(
      'other_status_reason is required when status is "other"',
    );
    expect(await refusal(UpdateProjectDto, { other_status_reason: '' })).toBe(
      'other_status_reason must be between 1 and 200 characters',
    );
    expect(await refusal(UpdateProjectDto, { status: 'other', other_status_reason: 'Waiting' })).toBeUndefined();
  });

  it('counts characters, not UTF-16 units', async () => {
    expect(await refusal(UpdateProjectDto, { name: '🛩'.repeat(100) })).toBeUndefined();
    expect(await refusal(UpdateProjectDto, { name: '🛩'.repeat(101) })).toBe(M.nameLength);
  });
});

describe('job DTOs', () => {
  const valid = { name: 'Blade inspection', type: 'wind_turbine', job_pattern: 'one_time', start_date: '2030-01-01' };

  it('requires on create what update leaves optional', async () => {
    expect(await refusal(CreateJobDto, {})).toBe(JOB_MESSAGES.nameRequired);
    expect(await refusal(CreateJobDto, { ...valid, start_date: undefined })).toBe(JOB_MESSAGES.startDateRequired);
    expect(await refusal(CreateJobDto, { ...valid, job_pattern: undefined })).toBe(JOB_MESSAGES.jobPattern);
    expect(await refusal(CreateJobDto, valid)).toBeUndefined();
    expect(await refusal(UpdateJobDto, {})).toBeUndefined();
  });

  it('reads null as "not given" on create, and refuses it on update for the fields that cannot be cleared', async () => {
    expect(await refusal(CreateJobDto, { ...valid, description: null, priority: null, status: null })).toBeUndefined();
    expect(await refusal(UpdateJobDto, { description: null })).toBe('description must be a string');
    expect(await refusal(UpdateJobDto, { priority: null })).toBe(JOB_MESSAGES.priority);
    expect(await refusal(UpdateJobDto, { name: null })).toBe('name must be a string');
    expect(await refusal(CreateJobDto, { ...valid, name: null })).toBe(JOB_MESSAGES.nameRequired);
  });

  it('lets null clear the nullable fields on update', async () => {
    const cleared = { end_date: null, latitude: null, longitude: null, external_id: null, capture_types: null };
    expect(await refusal(UpdateJobDto, { ...cleared, recurring_interval: null, weeks_of_month: null })).toBeUndefined();
  });

  it('checks a list step by step: array, size, values, duplicates', async () => {
    const capture = (capture_types: unknown) => refusal(UpdateJobDto, { capture_types });
    expect(await capture('lidar_scan')).toBe(JOB_MESSAGES.captureTypesArray);
    expect(await capture(Array(21).fill('lidar_scan'))).toBe(JOB_MESSAGES.captureTypesCount);
    expect(await capture(['lidar_scan', 'x'])).toBe(JOB_MESSAGES.captureTypesValues);
    expect(await capture(['lidar_scan', 'lidar_scan'])).toBe(JOB_MESSAGES.captureTypesUnique);
    expect(await refusal(UpdateJobDto, { selected_days_of_week: [1, 7] })).toBe(JOB_MESSAGES.selectedDaysValues);
    expect(await refusal(UpdateJobDto, { selected_days_of_week: [1.5] })).toBe(JOB_MESSAGES.selectedDaysValues);
  });

  it('checks a number for its type, then its range', async () => {
    expect(await refusal(UpdateJobDto, { latitude: '1' })).toBe(JOB_MESSAGES.latitudeNumber);
    expect(await refusal(UpdateJobDto, { latitude: 91 })).toBe(JOB_MESSAGES.latitudeRange);
    expect(await refusal(UpdateJobDto, { recurring_interval: 1.5 })).toBe(JOB_MESSAGES.recurringInterval);
  });

  it("reports the first failure in each request's own field order", async () => {
    // Create lists type before status; update lists status before type.
    const body = { type: 7, status: 'unknown' };
    expect(await refusal(CreateJobDto, { ...valid, ...body })).toBe('type must be a string');
    expect(await refusal(UpdateJobDto, body)).toBe(STATUS_MESSAGE);
  });
});

describe('webhook DTOs', () => {
  it("words each request's failures as the API reference does", async () => {
    const M = WEBHOOK_MESSAGES;
    expect(await refusal(CreateWebhookDto, {})).toBe(M.nameRequired);
    expect(await refusal(CreateWebhookDto, { name: 'Ops' })).toBe(M.urlRequired);
    expect(await refusal(CreateWebhookDto, { name: 'Ops', url: 'http://x' })).toBe(M.urlHttps);
    expect(await refusal(UpdateWebhookDto, { url: 'http://x' })).toBe(M.urlUpdate);
    expect(await refusal(CreateWebhookDto, { name: 'Ops', url: 'https://x', event_types: [] })).toBe(
      M.eventTypesRequired,
    );
    expect(await refusal(UpdateWebhookDto, { event_types: [] })).toBe(M.eventTypesUpdate);
    expect(await refusal(UpdateWebhookDto, { event_types: ['job.created', 'job.nope'] })).toBe(
      'Invalid event type: job.nope',
    );
    expect(await refusal(UpdateWebhookDto, { name: 'x' })).toBe(M.nameLength);
    expect(
      await refusal(CreateWebhookDto, {
        name: 'Ops',
        url: 'https://x',
        event_types: ['job.created'],
        status: 'paused',
      }),
    ).toBe('status is not an allowed field');
  });
});

describe('workspace DTOs', () => {
  it("takes update's fields from create, each optional: null refused for plan, unlimited for project_limit", async () => {
    expect(await refusal(UpdateWorkspaceDto, {})).toBeUndefined();
    expect(await refusal(UpdateWorkspaceDto, { plan: null })).toBe(WORKSPACE_MESSAGES.plan);
    expect(await refusal(UpdateWorkspaceDto, { project_limit: null })).toBeUndefined();
    expect(await refusal(UpdateWorkspaceDto, { project_limit: -1 })).toBe(WORKSPACE_MESSAGES.projectLimit);
    expect(await refusal(UpdateWorkspaceDto, { name: 'x' })).toBe('name is not an allowed field');
  });
});
