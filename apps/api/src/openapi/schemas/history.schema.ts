import { ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import type { AuditFeedPage, HistoryEntry, HistoryPage } from '@app/application';
import { EXAMPLE, millis, NEXT_CURSOR, PAGE_COUNT } from './common.schema';
import { SchemaFields, schemaOf } from './schema-table';

export const ApiKeyActorSchema = schemaOf(
  { name: 'ApiKeyActor', description: 'A change made through an API key.' },
  {
    type: { enum: ['api_key'], example: 'api_key' },
    id: { description: 'The API key id', example: EXAMPLE.apiKeyId },
    name: { description: 'The API key name', example: 'Ops bot' },
  },
);

export const MemberActorSchema = schemaOf(
  {
    name: 'MemberActor',
    description: 'A change made by a member of the workspace signed in to the dashboard.',
  },
  {
    type: { enum: ['member'], example: 'member' },
    id: { description: 'The user id of the member', example: EXAMPLE.userId },
  },
);

export const OperatorActorSchema = schemaOf(
  {
    name: 'OperatorActor',
    description:
      'A change made by the operator (admin API or CLI): `id` names the operator credential used, absent for ADMIN_TOKEN.',
  },
  {
    type: { enum: ['operator'], example: 'operator' },
    id: {
      type: String,
      required: false,
      description: 'The operator credential id',
      example: 'opr_8Hj2Kl4Mn6Pq8Rs0Tu2V',
    },
  },
);

/** The fields of a history entry, also those of an audit feed entry (with its workspace). */
export const HISTORY_ENTRY_FIELDS: SchemaFields<HistoryEntry> = {
  event_id: { format: 'uuid', example: '6b1f3c2e-9a4d-4e8b-8c7a-2d5f0e9b1a3c' },
  type: {
    description: 'The event type, e.g. `project.created`, `project.updated`, `project.deleted`',
    example: 'project.updated',
  },
  stream: { description: 'The stream of the aggregate', example: `project-${EXAMPLE.projectId}` },
  revision: {
    type: 'integer',
    minimum: 0,
    description: 'Position within the stream (0 = the first event)',
    example: 2,
  },
  position: { type: 'integer', minimum: 0, description: 'Position in the whole store', example: 1042 },
  recorded_at: millis('When the change was recorded (Unix time in milliseconds)'),
  actor: {
    oneOf: [
      { $ref: getSchemaPath(ApiKeyActorSchema) },
      { $ref: getSchemaPath(MemberActorSchema) },
      { $ref: getSchemaPath(OperatorActorSchema) },
    ],
    discriminator: {
      propertyName: 'type',
      mapping: {
        api_key: getSchemaPath(ApiKeyActorSchema),
        member: getSchemaPath(MemberActorSchema),
        operator: getSchemaPath(OperatorActorSchema),
      },
    },
  },
  request_id: {
    type: String,
    nullable: true,
    description: 'The `x-request-id` of the request that made the change',
    example: EXAMPLE.requestId,
  },
  change: {
    type: 'object',
    additionalProperties: true,
    description:
      'The change: the fields an update set, or the whole resource on create. Credentials never appear; erased personal data shows `[erased]`.',
    example: { name: 'Dam inspection, north bank', updated: EXAMPLE.time },
  },
};

export const HistoryEntrySchema = schemaOf<HistoryEntry>(
  { name: 'HistoryEntry', description: 'One recorded change (event), as auditors see it.' },
  HISTORY_ENTRY_FIELDS,
);
// The actor's shapes are referenced from `oneOf` only, so they are listed with the entry.
ApiExtraModels(ApiKeyActorSchema, MemberActorSchema, OperatorActorSchema)(HistoryEntrySchema);

export const HistoryPageSchema = schemaOf<HistoryPage>(
  {
    name: 'HistoryPage',
    description: "A page of one resource's history, oldest first; kept after the resource is deleted.",
  },
  { history: { type: () => [HistoryEntrySchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);

export const AuditFeedPageSchema = schemaOf<AuditFeedPage>(
  { name: 'AuditFeedPage', description: "A page of the workspace's audit feed, in store order." },
  { events: { type: () => [HistoryEntrySchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);
