import {
  IsInt,
  IsOptional,
  IsString,
  MetadataStorage,
  ValidateBy,
  ValidationError,
  validateSync,
} from 'class-validator';
import { VALIDATION_OPTIONS } from './validation';
import { CreateApiKeyDto } from '../admin/create-api-key/create-api-key.dto';
import { CreateWorkspaceDto } from '../admin/create-workspace/create-workspace.dto';
import { UpdateWorkspaceDto } from '../admin/update-workspace/update-workspace.dto';
import { AddMemberDto } from '../admin/add-member/add-member.dto';
import { UpdateJobDto } from '../jobs/update-job/update-job.dto';
import { CreateJobDto } from '../jobs/create-job/create-job.dto';
import { UnassignPilotsDto } from '../jobs/unassign-pilots/unassign-pilots.dto';
import { AssignPilotsDto } from '../jobs/assign-pilots/assign-pilots.dto';
import { ArchiveProjectDto } from '../projects/archive-project/archive-project.dto';
import { CreateProjectDto } from '../projects/create-project/create-project.dto';
import { UpdateProjectDto } from '../projects/update-project/update-project.dto';
import { CreateJobTypeDto } from '../job-types/create-job-type/create-job-type.dto';
import { RebuildDto } from '../operations/rebuild-projections/rebuild-projections.dto';
import { CreateWebhookDto } from '../webhooks/create-webhook/create-webhook.dto';
import { RecoverWebhookDto } from '../webhooks/recover-webhook/recover-webhook.dto';
import { UpdateWebhookDto } from '../webhooks/update-webhook/update-webhook.dto';
import { cacheValidationMetadata, validatePresent } from './validation-metadata-cache';

/** A storage of its own, so that these classes' rules are not looked up through the global one. */
function storageWith(register: (storage: MetadataStorage) => void) {
  const storage = new MetadataStorage();
  register(storage);
  return storage;
}

class Base {
  @IsString() name?: unknown;
}
class Child extends Base {
  @IsOptional() @IsInt() count?: unknown;
}

describe('cacheValidationMetadata', () => {
  const global = () =>
    (globalThis as { classValidatorMetadataStorage?: MetadataStorage }).classValidatorMetadataStorage!;

  it('answers as the storage does, own and inherited rules, from the second lookup on without scanning', () => {
    const reference = global().getTargetValidationMetadatas(Child, '', false, false);
    const storage = storageWith((s) => reference.forEach((m) => s.addValidationMetadata(m)));
    const uncached = storage.getTargetValidationMetadatas(Child, '', false, false);
    cacheValidationMetadata(storage);
    const first = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(first).toEqual(uncached);
    expect(first.map((m) => m.propertyName).sort()).toEqual(['count', 'count', 'name']);

    const scan = jest.spyOn(storage['validationMetadatas'] as Map<unknown, unknown>, 'entries');
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(scan).not.toHaveBeenCalled();
  });

  it('keeps options apart and does not cache lookups with groups', () => {
    const storage = storageWith((s) =>
      global()
        .getTargetValidationMetadatas(Child, '', false, false)
        .forEach((m) => s.addValidationMetadata(m)),
    );
    cacheValidationMetadata(storage);
    const plain = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(storage.getTargetValidationMetadatas(Child, '', true, false)).not.toBe(plain);
    const withGroups = storage.getTargetValidationMetadatas(Child, '', false, false, ['a']);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false, ['a'])).not.toBe(withGroups);
  });

  it('forgets its answers when a rule is registered afterwards', () => {
    cacheValidationMetadata();
    class Late {
      @IsString() first?: unknown;
    }
    const late = new Late();
    late.first = 1;
    expect(validateSync(late).map((e) => e.property)).toEqual(['first']);
    // A rule added to the class after it was validated once (as a decorator of a class loaded
    // later does for that class): the next validation sees it.
    ValidateBy({ name: 'never', validator: { validate: () => false, defaultMessage: () => 'second is wrong' } })(
      Late.prototype,
      'second',
    );
    late.first = 'ok';
    expect(validateSync(late).map((e) => e.constraints)).toEqual([{ never: 'second is wrong' }]);
  });

  it('wraps a storage once', () => {
    const storage = new MetadataStorage();
    cacheValidationMetadata(storage);
    const wrapped = storage.getTargetValidationMetadatas;
    cacheValidationMetadata(storage);
    expect(storage.getTargetValidationMetadatas).toBe(wrapped);
  });
});

describe('validatePresent', () => {
  const DTOS: (new () => object)[] = [
    CreateApiKeyDto,
    CreateWorkspaceDto,
    UpdateWorkspaceDto,
    AddMemberDto,
    UpdateJobDto,
    CreateJobDto,
    UnassignPilotsDto,
    AssignPilotsDto,
    ArchiveProjectDto,
    CreateProjectDto,
    UpdateProjectDto,
    CreateJobTypeDto,
    RebuildDto,
    CreateWebhookDto,
    RecoverWebhookDto,
    UpdateWebhookDto,
  ];
  // Values of every kind the DTOs' rules tell apart: wrong types, null, limits, each field's valid values.
  const VALUES: unknown[] = [
    null,
    '',
    ' ',
    'x',
    'a'.repeat(101),
    'a'.repeat(256),
    'a'.repeat(2001),
    'other',
    'planned',
    'in_progress',
    'completed',
    'not_started',
    'high',
    'low',
    'one_time',
    'recurring',
    'daily',
    'weekly',
    'monthly',
    'flexible',
    'photo',
    'video',
    'drone_inspection',
    'full_access',
    'read_only',
    'enterprise',
    'pilot',
    'ops@example.com',
    'not an email',
    'https://example.com/hook',
    'http://localhost/hook',
    'project.created',
    'job.updated',
    '2026-06-01',
    '2026-02-30',
    '2020-01-01',
    'usr_1',
    0,
    1,
    -1,
    2,
    7,
    1.5,
    90,
    -180,
    181,
    100_000,
    true,
    false,
    [],
    [1, 2],
    [0, 7],
    ['photo'],
    ['project.created', 'job.updated'],
    ['usr_1', 'usr_1'],
    [1, 'a'],
    {},
    { nested: 1 },
  ];

  /** Deterministic: a failure names its seed. */
  function random(seed: number) {
    let state = seed >>> 0 || 1;
    return () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 2 ** 32;
    };
  }

  // The pipe's own options: the narrowing is checked as requests are validated.
  const OPTIONS = VALIDATION_OPTIONS;
  const shape = (errors: ValidationError[]) => errors.map((e) => [e.property, e.constraints, e.children?.length ?? 0]);

  it('reports, error for error, what the validator reports for the whole DTO, on every DTO', () => {
    cacheValidationMetadata();
    let compared = 0;
    let passing = 0;
    for (const dto of DTOS) {
      const fields = Object.keys(new dto());
      for (let seed = 1; seed <= 400; seed++) {
        const next = random(seed * 7919 + fields.length);
        const body: Record<string, unknown> = {};
        const count = Math.floor(next() * Math.min(fields.length + 1, 7));
        for (let i = 0; i < count; i++)
          body[fields[Math.floor(next() * fields.length)]] = VALUES[Math.floor(next() * VALUES.length)];
        if (next() < 0.1) body.unknown_field = 'x';
        // The whole DTO, as the validator was given it before: every field, absent ones undefined.
        const whole = Object.assign(new dto(), body);
        const given = Object.assign(Object.create(dto.prototype) as object, body);
        const expected = shape(validateSync(whole, OPTIONS));
        expect([dto.name, seed, shape(validatePresent(given, OPTIONS))]).toEqual([dto.name, seed, expected]);
        compared++;
        if (expected.length === 0) passing++;
      }
    }
    expect(compared).toBe(DTOS.length * 400);
    // Both kinds are compared: bodies that pass and bodies that fail.
    expect(passing).toBeGreaterThan(300);
  });

  it('checks an absent field whose condition holds without it, and only the fields the object has otherwise', () => {
    cacheValidationMetadata();
    const given = (body: object) => Object.assign(Object.create(UpdateJobDto.prototype) as object, body);
    // `other_status_reason` is required when the status becomes `other`, given or not.
    expect(validatePresent(given({ status: 'other' }), OPTIONS).map((e) => e.property)).toEqual([
      'other_status_reason',
    ]);
    expect(validatePresent(given({ name: 'Inspection' }), OPTIONS)).toEqual([]);
    // The validator looks at the one field given, not at the other nineteen.
    const { ValidationExecutor } = jest.requireActual<{ ValidationExecutor: { prototype: object } }>(
      'class-validator/cjs/validation/ValidationExecutor',
    );
    const looked = jest.spyOn(ValidationExecutor.prototype as { performValidations: () => void }, 'performValidations');
    validatePresent(given({ name: 'Inspection' }), OPTIONS);
    expect(looked.mock.calls.map((call) => (call as unknown[])[2])).toEqual(['name']);
    looked.mockRestore();
    // A required field of a create that is not given fails as it did.
    const create = Object.assign(Object.create(CreateProjectDto.prototype) as object, {});
    expect(shape(validatePresent(create, OPTIONS))).toEqual(shape(validateSync(new CreateProjectDto(), OPTIONS)));
    expect(validatePresent(create, OPTIONS).length).toBeGreaterThan(0);
  });
});
