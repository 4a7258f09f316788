import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { DeadLetter, Difference, ProjectionStatus, RebuildProgress, VerifyReport } from '@app/application';
import { EXAMPLE, Millis } from './common.schema';

@ApiSchema({ name: 'RebuildProgress', description: 'Progress of a blue/green projection rebuild.' })
export class RebuildProgressSchema implements RebuildProgress {
  @ApiProperty({ example: 'projects' })
  projection!: string;

  @ApiProperty({ enum: ['queued', 'running', 'done', 'failed'], example: 'running' })
  state!: RebuildProgress['state'];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Events read so far', example: 120000 })
  processed!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Store position reached', example: 120000 })
  position!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Store head when the rebuild started', example: 480000 })
  head!: number;

  @ApiProperty({ example: 52000 })
  eventsPerSecond!: number;

  @ApiProperty({ type: Number, nullable: true, example: 7 })
  etaSeconds!: number | null;

  @Millis()
  startedAt!: number;

  @Millis('Unix time in milliseconds; null while running', { nullable: true })
  finishedAt!: number | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  error!: string | null;
}

@ApiSchema({ name: 'ProjectionStatus', description: "A projection's checkpoint and lag." })
export class ProjectionStatusSchema implements ProjectionStatus {
  @ApiProperty({ example: 'projects' })
  name!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'The store position applied, as the projector stored it with the read models',
    example: 480000,
  })
  checkpoint!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'The store head', example: 480002 })
  head!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Events not yet applied (counted up to 10,000)',
    example: 2,
  })
  lag!: number;

  @ApiProperty({ description: 'True when more events than `lag` are not yet applied', example: false })
  lagCapped!: boolean;

  @ApiProperty({ type: () => RebuildProgressSchema, nullable: true })
  rebuild!: RebuildProgress | null;
}

@ApiSchema({ name: 'ProjectionStatusList' })
export class ProjectionStatusListSchema {
  @ApiProperty({
    enum: ['projector', 'replica'],
    description: 'This process: the projector (PROJECTIONS=inline) or an API replica (PROJECTIONS=external)',
    example: 'projector',
  })
  role!: 'projector' | 'replica';

  @ApiProperty({ type: () => [ProjectionStatusSchema] })
  projections!: ProjectionStatus[];
}

@ApiSchema({ name: 'DeadLetter', description: 'An event a projector threw on, parked for that projection only.' })
export class DeadLetterSchema implements DeadLetter {
  @ApiProperty({ example: 'jobs' })
  projection!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Store position of the event', example: 4711 })
  position!: number;

  @ApiProperty({ example: 'b0d6f4c2-3f5e-4a8b-9c1d-2e3f4a5b6c7d' })
  eventId!: string;

  @ApiProperty({ example: `job-${EXAMPLE.jobId}` })
  streamId!: string;

  @ApiProperty({ example: 'job.updated' })
  eventType!: string;

  @ApiProperty({
    description: "The projector's error message",
    example: "Cannot read properties of undefined (reading 'start_date')",
  })
  error!: string;

  @Millis()
  firstFailedAt!: number;

  @Millis()
  lastFailedAt!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'Failed attempts: 1 when parked, one more per failed retry',
    example: 1,
  })
  attempts!: number;
}

@ApiSchema({ name: 'DeadLetterList' })
export class DeadLetterListSchema {
  @ApiProperty({ type: () => [DeadLetterSchema] })
  dead_letters!: DeadLetter[];
}

@ApiSchema({
  name: 'DeadLetterRetried',
  description: 'What a retry did: `applied` (the dead letter is gone) or `failed` (it records the new attempt).',
})
export class DeadLetterRetriedSchema {
  @ApiProperty({ enum: ['applied', 'failed'], example: 'applied' })
  outcome!: 'applied' | 'failed';

  @ApiProperty({ type: () => DeadLetterSchema })
  dead_letter!: DeadLetter;
}

@ApiSchema({ name: 'DeadLetterSkipped' })
export class DeadLetterSkippedSchema {
  @ApiProperty({ example: 'Dead letter skipped' })
  message!: string;

  @ApiProperty({ type: () => DeadLetterSchema })
  dead_letter!: DeadLetter;
}

@ApiSchema({
  name: 'RebuildStarted',
  description: 'The rebuild started; poll GET /v1/admin/projections for its progress.',
})
export class RebuildStartedSchema {
  @ApiProperty({ example: 'Rebuilding projects' })
  message!: string;

  @ApiProperty({
    type: [String],
    description: 'The projections to rebuild, one after the other',
    example: ['projects'],
  })
  projections!: string[];

  @ApiProperty({ type: () => [RebuildProgressSchema], description: 'The first one, started now' })
  started!: RebuildProgress[];
}

@ApiSchema({
  name: 'ReadModelDifference',
  description: 'A read-model document that differs from a replay of the store.',
})
export class DifferenceSchema implements Difference {
  @ApiProperty({ example: 'projects' })
  projection!: string;

  @ApiProperty({ example: 'projects' })
  collection!: string;

  @ApiProperty({ example: EXAMPLE.projectId })
  id!: string;

  @ApiProperty({ enum: ['missing', 'unexpected', 'different'], example: 'different' })
  kind!: Difference['kind'];

  @ApiProperty({ required: false, description: 'The document as the replay builds it' })
  expected?: unknown;

  @ApiProperty({ required: false, description: 'The live document' })
  actual?: unknown;
}

@ApiSchema({ name: 'VerifyReport', description: 'Every live read-model document compared with a replay of the store.' })
export class VerifyReportSchema implements VerifyReport {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The store position compared at', example: 480000 })
  position!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Documents compared', example: 15230 })
  documents!: number;

  @ApiProperty({ type: () => [DifferenceSchema] })
  differences!: Difference[];

  @ApiProperty({ description: 'true when more differences exist than are listed', example: false })
  truncated!: boolean;
}

@ApiSchema({ name: 'ExportedEvent', description: 'One line of an NDJSON event export.' })
export class ExportedEventSchema {
  @ApiProperty({ format: 'uuid', example: '6b1f3c2e-9a4d-4e8b-8c7a-2d5f0e9b1a3c' })
  id!: string;

  @ApiProperty({ example: `project-${EXAMPLE.projectId}` })
  stream!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 0 })
  revision!: number;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1040 })
  position!: number;

  @ApiProperty({ example: 'project.created' })
  type!: string;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  schema_version!: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The event data: credentials removed, erased personal data shown as `[erased]`',
  })
  data!: unknown;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'workspaceId, actor, requestId, correlationId, causationId, recordedAt',
    example: {
      workspaceId: EXAMPLE.workspaceId,
      actor: { type: 'operator' },
      requestId: EXAMPLE.requestId,
      recordedAt: EXAMPLE.time,
    },
  })
  metadata!: unknown;
}

@ApiSchema({ name: 'Health', description: 'Liveness.' })
export class HealthSchema {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status!: 'ok';
}

@ApiSchema({ name: 'ReadinessChecks' })
export class ReadinessChecksSchema {
  @ApiProperty({ enum: ['ok', 'unreachable'], example: 'ok' })
  event_store!: string;

  @ApiProperty({ enum: ['ok', 'unreachable'], example: 'ok' })
  read_models!: string;

  @ApiProperty({
    required: false,
    description: '`ok`, or `behind: <projection> (<events not yet applied>), ...`',
    example: 'ok',
  })
  projections?: string;

  @ApiProperty({
    required: false,
    description:
      'Present when a projection holds parked events (still ready): `dead letters: <projection> (<count>), ...`. See GET /v1/admin/projections/dead-letters.',
    example: 'dead letters: jobs (1)',
  })
  degraded?: string;
}

@ApiSchema({ name: 'Ready', description: 'Both stores answer and every projection is caught up.' })
export class ReadySchema {
  @ApiProperty({ enum: ['ready'], example: 'ready' })
  status!: 'ready';

  @ApiProperty({
    enum: ['projector', 'replica'],
    description:
      'This process: the projector (PROJECTIONS=inline) or an API replica (PROJECTIONS=external); both judge the same stored checkpoints',
    example: 'projector',
  })
  role!: 'projector' | 'replica';

  @ApiProperty({ type: () => ReadinessChecksSchema })
  checks!: ReadinessChecksSchema;
}

@ApiSchema({ name: 'NotReady', description: 'A store is unreachable or a projection is too far behind.' })
export class NotReadySchema {
  @ApiProperty({ example: 'Not ready' })
  message!: string;

  @ApiProperty({ enum: ['not_ready'], example: 'not_ready' })
  status!: 'not_ready';

  @ApiProperty({ enum: ['projector', 'replica'], example: 'replica' })
  role!: 'projector' | 'replica';

  @ApiProperty({ type: () => ReadinessChecksSchema })
  checks!: ReadinessChecksSchema;
}
