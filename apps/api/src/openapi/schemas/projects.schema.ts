import { ApiPropertyOptions } from '@nestjs/swagger';
import type { ProjectList } from '@app/application';
import {
  CreatedBy,
  OTHER_STATUS_REASON_LIMITS,
  PROJECT_LIMITS as L,
  ProjectView,
  Status,
  STATUS_VALUES,
} from '@app/domain';
import { EXAMPLE, millis, NEXT_CURSOR, orNull, PAGE_COUNT } from './common.schema';
import { schemaOf } from './schema-table';

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

/** `status` as responses show it: the shared `Status` schema, without the request's advice. */
export const statusField = (options: { example?: Status } = {}) =>
  ({
    ...STATUS_FIELD,
    description: undefined,
    example: options.example ?? STATUS_FIELD.example,
  }) satisfies ApiPropertyOptions;

export const CreatedBySchema = schemaOf<CreatedBy>(
  {
    name: 'CreatedBy',
    description: 'Who created the resource: an API key (its name in `first_name`) or the operator.',
  },
  {
    id: { description: 'User id, API key id, or `operator`', example: EXAMPLE.apiKeyId },
    email: { type: String, nullable: true, description: 'null for API-key-created resources', example: null },
    first_name: {
      type: String,
      nullable: true,
      description: 'The API key name for API-key-created resources',
      example: 'Ops bot',
    },
    last_name: { type: String, nullable: true, description: 'null for API-key-created resources', example: null },
    profile_picture: { type: String, format: 'uri', nullable: true, example: null },
  },
);

export const ProjectSchema = schemaOf<ProjectView>(
  { name: 'Project', description: 'A container of work (docs/api.md, Projects).' },
  {
    id: { example: EXAMPLE.projectId },
    name: PROJECT_FIELD.name,
    description: PROJECT_FIELD.description,
    status: statusField(),
    start_date: PROJECT_FIELD.start_date,
    end_date: orNull(PROJECT_FIELD.end_date),
    created: millis(),
    updated: millis(),
    archived: { description: 'Archived projects are left out of the default list', example: false },
    external_id: orNull(PROJECT_FIELD.external_id),
    laanc_number: orNull(PROJECT_FIELD.laanc_number),
    created_by: { type: () => CreatedBySchema },
  },
);

export const ProjectListSchema = schemaOf<ProjectList>(
  { name: 'ProjectList', description: 'A page of projects.' },
  { projects: { type: () => [ProjectSchema] }, count: PAGE_COUNT, cursor: NEXT_CURSOR },
);
