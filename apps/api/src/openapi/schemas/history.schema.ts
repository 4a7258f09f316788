import { ApiExtraModels, ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import type { AuditFeedPage, HistoryEntry, HistoryPage } from '@app/application';
import { EXAMPLE, Millis, NextCursor, PageCount } from './common.schema';

@ApiSchema({ name: 'ApiKeyActor', description: 'A change made through an API key.' })
export class ApiKeyActorSchema {
  @ApiProperty({ enum: ['api_key'], example: 'api_key' })
  type!: 'api_key';

  @ApiProperty({ description: 'The API key id', example: EXAMPLE.apiKeyId })
  id!: string;

  @ApiProperty({ description: 'The API key name', example: 'Ops bot' })
  name!: string;
}

@ApiSchema({ name: 'OperatorActor', description: 'A change made by the operator (admin API or CLI).' })
export class OperatorActorSchema {
  @ApiProperty({ enum: ['operator'], example: 'operator' })
  type!: 'operator';
}

@ApiExtraModels(ApiKeyActorSchema, OperatorActorSchema)
@ApiSchema({ name: 'HistoryEntry', description: 'One recorded change (event), as auditors see it.' })
export class HistoryEntrySchema implements HistoryEntry {
  @ApiProperty({ format: 'uuid', example: '6b1f3c2e-9a4d-4e8b-8c7a-2d5f0e9b1a3c' })
  event_id!: string;

  @ApiProperty({
    description: 'The event type, e.g. `project.created`, `project.updated`, `project.deleted`',
    example: 'project.updated',
  })
  type!: string;

  @ApiProperty({ description: 'The stream of the aggregate', example: `project-${EXAMPLE.projectId}` })
  stream!: string;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Position within the stream (0 = the first event)',
    example: 2,
  })
  revision!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Position in the whole store', example: 1042 })
  position!: number;

  @Millis('When the change was recorded (Unix time in milliseconds)')
  recorded_at!: number;

  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(ApiKeyActorSchema) }, { $ref: getSchemaPath(OperatorActorSchema) }],
    discriminator: {
      propertyName: 'type',
      mapping: { api_key: getSchemaPath(ApiKeyActorSchema), operator: getSchemaPath(OperatorActorSchema) },
    },
  })
  actor!: HistoryEntry['actor'];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The `x-request-id` of the request that made the change',
    example: EXAMPLE.requestId,
  })
  request_id!: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The change: the fields an update set, or the whole resource on create. Credentials never appear; erased personal data shows `[erased]`.',
    example: { name: 'Dam inspection, phase 2', updated: EXAMPLE.time },
  })
  change!: unknown;
}

@ApiSchema({
  name: 'HistoryPage',
  description: "A page of one resource's history, oldest first; kept after the resource is deleted.",
})
export class HistoryPageSchema implements HistoryPage {
  @ApiProperty({ type: () => [HistoryEntrySchema] })
  history!: HistoryEntry[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;
}

@ApiSchema({ name: 'AuditFeedPage', description: "A page of the workspace's audit feed, in store order." })
export class AuditFeedPageSchema implements AuditFeedPage {
  @ApiProperty({ type: () => [HistoryEntrySchema] })
  events!: HistoryEntry[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;
}
