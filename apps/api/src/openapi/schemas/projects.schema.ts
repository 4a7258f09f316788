import { ApiProperty, ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import type { ProjectList } from '@app/application';
import {
  CreatedBy,
  OTHER_STATUS_REASON_LIMITS,
  PROJECT_LIMITS as L,
  ProjectView,
  Status,
  STATUS_VALUES,
} from '@app/domain';
import { EXAMPLE, Millis, NextCursor, PageCount } from './common.schema';

/**
 * How the document describes each project field; the request DTOs use the same entries (adding
 * `nullable` where a request may send null), so bounds and examples are written once.
 */
export const PROJECT_FIELD = {
  name: { type: String, minLength: L.name.min, maxLength: L.name.max, example: 'Dam inspection' },
  description: { type: String, maxLength: L.description.max, example: 'Spillway and crest survey' },
  start_date: { type: String, format: 'date', description: 'ISO 8601 date (YYYY-MM-DD)', example: '2026-12-01' },
  end_date: { type: String, format: 'date', description: 'ISO 8601 date, after start_date', example: '2026-12-31' },
  external_id: {
    type: String,
    maxLength: L.externalId,
    description: "The caller's own identifier",
    example: 'DAM-2026-014',
  },
  laanc_number: {
    type: String,
    maxLength: L.laancNumber,
    description: 'Airspace authorization number',
    example: 'LAANC-7FJ2K9',
  },
  other_status_reason: {
    type: String,
    minLength: OTHER_STATUS_REASON_LIMITS.min,
    maxLength: OTHER_STATUS_REASON_LIMITS.max,
    writeOnly: true,
    description: 'Required when `status` is `other` (and only then); kept in the history, never shown',
    example: 'Waiting for the landowner',
  },
} satisfies Record<string, ApiPropertyOptions>;

/** `status` of projects and jobs (docs/api.md, Statuses), one schema (`Status`) for both. */
export const STATUS_FIELD = {
  enum: [...STATUS_VALUES],
  enumName: 'Status',
  description: '`other` requires `other_status_reason` in the same request',
  example: 'planned',
} satisfies ApiPropertyOptions;

export const StatusProperty = (options: { example?: Status } = {}) =>
  ApiProperty({ ...STATUS_FIELD, description: undefined, example: options.example ?? STATUS_FIELD.example });

@ApiSchema({
  name: 'CreatedBy',
  description: 'Who created the resource: an API key (its name in `first_name`) or the operator.',
})
export class CreatedBySchema implements CreatedBy {
  @ApiProperty({ description: 'User id, API key id, or `operator`', example: EXAMPLE.apiKeyId })
  id!: string;

  @ApiProperty({ type: String, nullable: true, description: 'null for API-key-created resources', example: null })
  email!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The API key name for API-key-created resources',
    example: 'Ops bot',
  })
  first_name!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'null for API-key-created resources', example: null })
  last_name!: string | null;

  @ApiProperty({ type: String, format: 'uri', nullable: true, example: null })
  profile_picture!: string | null;
}

@ApiSchema({ name: 'Project', description: 'A container of work (docs/api.md, Projects).' })
export class ProjectSchema implements ProjectView {
  @ApiProperty({ example: EXAMPLE.projectId })
  id!: string;

  @ApiProperty(PROJECT_FIELD.name)
  name!: string;

  @ApiProperty(PROJECT_FIELD.description)
  description!: string;

  @StatusProperty()
  status!: Status;

  @ApiProperty(PROJECT_FIELD.start_date)
  start_date!: string;

  @ApiProperty({ ...PROJECT_FIELD.end_date, nullable: true })
  end_date!: string | null;

  @Millis()
  created!: number;

  @Millis()
  updated!: number;

  @ApiProperty({ description: 'Archived projects are left out of the default list', example: false })
  archived!: boolean;

  @ApiProperty({ ...PROJECT_FIELD.external_id, nullable: true })
  external_id!: string | null;

  @ApiProperty({ ...PROJECT_FIELD.laanc_number, nullable: true })
  laanc_number!: string | null;

  @ApiProperty({ type: () => CreatedBySchema })
  created_by!: CreatedBy;
}

@ApiSchema({ name: 'ProjectList', description: 'A page of projects.' })
export class ProjectListSchema implements ProjectList {
  @ApiProperty({ type: () => [ProjectSchema] })
  projects!: ProjectView[];

  @PageCount()
  count!: number;

  @NextCursor()
  cursor!: string | null;
}
