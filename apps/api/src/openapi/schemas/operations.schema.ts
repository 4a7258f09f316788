import type {
  AttemptCount,
  DeadLetter,
  DeliveryBacklog,
  DeliveryOverview,
  Difference,
  ProjectionStatus,
  RebuildProgress,
  TroubledWebhook,
  VerifyReport,
} from '@app/application';
import { EXAMPLE, millis } from './common.schema';
import { schemaOf } from './schema-table';

const ROLES = ['projector', 'replica'];
const count = (description: string, example: number, minimum = 0) =>
  ({ type: 'integer', minimum, description, example }) as const;

export const RebuildProgressSchema = schemaOf<RebuildProgress>(
  { name: 'RebuildProgress', description: 'Progress of a blue/green projection rebuild.' },
  {
    projection: { example: 'projects' },
    state: { enum: ['queued', 'running', 'done', 'failed'], example: 'running' },
    processed: count('Events read so far', 120000),
    position: count('Store position reached', 120000),
    head: count('Store head when the rebuild started', 480000),
    eventsPerSecond: { example: 52000 },
    etaSeconds: { type: Number, nullable: true, example: 7 },
    startedAt: millis(),
    finishedAt: millis('Unix time in milliseconds; null while running', { nullable: true }),
    error: { type: String, nullable: true, example: null },
  },
);

export const ProjectionStatusSchema = schemaOf<ProjectionStatus>(
  { name: 'ProjectionStatus', description: "A projection's checkpoint and lag." },
  {
    name: { example: 'projects' },
    checkpoint: count('The store position applied, as the projector stored it with the read models', 480000),
    head: count('The store head', 480002),
    lag: count('Events not yet applied (counted up to 10,000)', 2),
    lagCapped: { description: 'True when more events than `lag` are not yet applied', example: false },
    rebuild: { type: () => RebuildProgressSchema, nullable: true },
  },
);

export const ProjectionStatusListSchema = schemaOf(
  { name: 'ProjectionStatusList' },
  {
    role: {
      enum: ROLES,
      description: 'This process: the projector (PROJECTIONS=inline) or an API replica (PROJECTIONS=external)',
      example: 'projector',
    },
    projections: { type: () => [ProjectionStatusSchema] },
  },
);

export const DeadLetterSchema = schemaOf<DeadLetter>(
  { name: 'DeadLetter', description: 'An event a projector threw on, parked for that projection only.' },
  {
    projection: { example: 'jobs' },
    position: count('Store position of the event', 4711, 1),
    eventId: { example: 'b0d6f4c2-3f5e-4a8b-9c1d-2e3f4a5b6c7d' },
    streamId: { example: `job-${EXAMPLE.jobId}` },
    eventType: { example: 'job.updated' },
    error: {
      description: "The projector's error message",
      example: "Cannot read properties of undefined (reading 'start_date')",
    },
    firstFailedAt: millis(),
    lastFailedAt: millis(),
    attempts: count('Failed attempts: 1 when parked, one more per failed retry', 1, 1),
  },
);

export const DeadLetterListSchema = schemaOf(
  { name: 'DeadLetterList' },
  { dead_letters: { type: () => [DeadLetterSchema] } },
);

export const DeadLetterRetriedSchema = schemaOf(
  {
    name: 'DeadLetterRetried',
    description: 'What a retry did: `applied` (the dead letter is gone) or `failed` (it records the new attempt).',
  },
  {
    outcome: { enum: ['applied', 'failed'], example: 'applied' },
    dead_letter: { type: () => DeadLetterSchema },
  },
);

export const DeadLetterSkippedSchema = schemaOf(
  { name: 'DeadLetterSkipped' },
  {
    message: { example: 'Dead letter skipped' },
    dead_letter: { type: () => DeadLetterSchema },
  },
);

export const RebuildStartedSchema = schemaOf(
  { name: 'RebuildStarted', description: 'The rebuild started; poll GET /v1/admin/projections for its progress.' },
  {
    message: { example: 'Rebuilding projects' },
    projections: {
      type: [String],
      description: 'The projections to rebuild, one after the other',
      example: ['projects'],
    },
    started: { type: () => [RebuildProgressSchema], description: 'The first one, started now' },
  },
);

export const DifferenceSchema = schemaOf<Difference>(
  { name: 'ReadModelDifference', description: 'A read-model document that differs from a replay of the store.' },
  {
    projection: { example: 'projects' },
    collection: { example: 'projects' },
    id: { example: EXAMPLE.projectId },
    kind: { enum: ['missing', 'unexpected', 'different'], example: 'different' },
    expected: { required: false, description: 'The document as the replay builds it' },
    actual: { required: false, description: 'The live document' },
  },
);

export const VerifyReportSchema = schemaOf<VerifyReport>(
  { name: 'VerifyReport', description: 'Every live read-model document compared with a replay of the store.' },
  {
    position: count('The store position compared at', 480000),
    documents: count('Documents compared', 15230),
    differences: { type: () => [DifferenceSchema] },
    truncated: { description: 'true when more differences exist than are listed', example: false },
  },
);

export const ExportedEventSchema = schemaOf(
  { name: 'ExportedEvent', description: 'One line of an NDJSON event export.' },
  {
    id: { format: 'uuid', example: '6b1f3c2e-9a4d-4e8b-8c7a-2d5f0e9b1a3c' },
    stream: { example: `project-${EXAMPLE.projectId}` },
    revision: { type: 'integer', minimum: 0, example: 0 },
    position: { type: 'integer', minimum: 0, example: 1040 },
    type: { example: 'project.created' },
    schema_version: { type: 'integer', minimum: 1, example: 1 },
    data: {
      type: 'object',
      additionalProperties: true,
      description: 'The event data: credentials removed, erased personal data shown as `[erased]`',
    },
    metadata: {
      type: 'object',
      additionalProperties: true,
      description: 'workspaceId, actor, requestId, correlationId, causationId, recordedAt',
      example: {
        workspaceId: EXAMPLE.workspaceId,
        actor: { type: 'operator' },
        requestId: EXAMPLE.requestId,
        recordedAt: EXAMPLE.time,
      },
    },
  },
);

export const HealthSchema = schemaOf(
  { name: 'Health', description: 'Liveness.' },
  { status: { enum: ['ok'], example: 'ok' } },
);

const ReadinessChecksSchema = schemaOf(
  { name: 'ReadinessChecks' },
  {
    event_store: { enum: ['ok', 'unreachable'], example: 'ok' },
    read_models: { enum: ['ok', 'unreachable'], example: 'ok' },
    projections: {
      required: false,
      description: '`ok`, or `behind: <projection> (<events not yet applied>), ...`',
      example: 'ok',
    },
    degraded: {
      required: false,
      description:
        'Present when a projection holds parked events (still ready): `dead letters: <projection> (<count>), ...`. See GET /v1/admin/projections/dead-letters.',
      example: 'dead letters: jobs (1)',
    },
  },
);

export const ReadySchema = schemaOf(
  { name: 'Ready', description: 'Both stores answer and every projection is caught up.' },
  {
    status: { enum: ['ready'], example: 'ready' },
    role: {
      enum: ROLES,
      description:
        'This process: the projector (PROJECTIONS=inline) or an API replica (PROJECTIONS=external); both judge the same stored checkpoints',
      example: 'projector',
    },
    checks: { type: () => ReadinessChecksSchema },
  },
);

export const NotReadySchema = schemaOf(
  { name: 'NotReady', description: 'A store is unreachable or a projection is too far behind.' },
  {
    message: { example: 'Not ready' },
    status: { enum: ['not_ready'], example: 'not_ready' },
    role: { enum: ROLES, example: 'replica' },
    checks: { type: () => ReadinessChecksSchema },
  },
);

export const DeliveryBacklogSchema = schemaOf<DeliveryBacklog>(
  { name: 'DeliveryBacklog', description: 'Pending webhook deliveries across every workspace.' },
  {
    pending: count('Pending deliveries not attempted yet', 3),
    retrying: count('Pending deliveries waiting for a retry after a failed attempt', 1),
  },
);

export const TroubledWebhookSchema = schemaOf<TroubledWebhook>(
  { name: 'TroubledWebhook', description: 'A paused subscription, or one whose latest attempts failed.' },
  {
    id: { example: EXAMPLE.webhookId },
    workspace_id: { example: EXAMPLE.workspaceId },
    url: { type: String, nullable: true, example: 'https://hooks.example.com/ops' },
    status: { enum: ['active', 'paused'], example: 'paused' },
    failure_count: count('Consecutive failed attempts', 12),
    last_attempt_at: millis('Unix time in milliseconds; null before the first attempt', { nullable: true }),
    last_response_status: { type: 'integer', nullable: true, example: 503 },
    pause_reason: {
      type: String,
      enum: ['consecutive_failures', 'gone', 'by_hand'],
      nullable: true,
      example: 'consecutive_failures',
    },
    paused_at: millis('Unix time in milliseconds; null for an active subscription', { nullable: true }),
  },
);

export const AttemptCountSchema = schemaOf<AttemptCount>(
  { name: 'AttemptCount', description: 'Delivery attempts of one period.' },
  {
    bucket: millis('Start of the period (Unix time in milliseconds)'),
    succeeded: count('Attempts that succeeded', 40),
    failed: count('Attempts that failed', 2),
  },
);

export const DeliveryOverviewSchema = schemaOf<DeliveryOverview>(
  { name: 'DeliveryOverview', description: 'Webhook deliveries across every workspace.' },
  {
    backlog: { type: () => DeliveryBacklogSchema },
    subscriptions: {
      type: () => [TroubledWebhookSchema],
      description: 'Paused and failing subscriptions, most failures first (at most 50)',
    },
    attempts: {
      type: () => [AttemptCountSchema],
      description: 'Attempts per hour over the last 24 hours, oldest first',
    },
    bucket_ms: count('Length of a period in milliseconds', 3600000, 1),
  },
);
