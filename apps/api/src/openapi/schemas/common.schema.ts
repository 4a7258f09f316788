import { ApiPropertyOptions } from '@nestjs/swagger';
import { PAGE_SIZE } from '@app/application';
import { COMMON_MESSAGES, PROJECT_ANSWERS } from '@app/domain';
import { AUTH_FAILURES, AuthCode } from '../../http/errors';
import { schemaOf } from './schema-table';

/**
 * Response schemas shared by every part of the API, and the example values the document uses
 * throughout (identifiers have the service's real shape: a readable prefix and 20 base62 characters).
 *
 * Response schemas are made from one field table each (schema-table.ts). Where a domain or
 * application type describes the same object, the table is typed by it, so the type checker keeps
 * the two in step.
 */
export const EXAMPLE = {
  workspaceId: 'ws_7Gq2LrT9xKp4Wm8ZbN3c',
  projectId: 'prj_3kT9xq2LmN8vB5cR7wZa',
  jobId: 'job_9Xc4RtY7uI2oP5aS8dFg',
  jobTypeId: 'jbt_H6jK1lZ3xC5vB7nM9qWe',
  userId: 'usr_4Rt6Yu8Io0Pa2Sd4Fg6H',
  apiKeyId: 'key_2Bn4Mq6Wr8Ty1Ui3Op5A',
  webhookId: 'whk_5Df7Gh9Jk1Lz3Xc5Vb7N',
  /** 2026-01-01T00:00:00Z in milliseconds. */
  time: 1767225600000,
  /** The cursor of a page that ends with the 50th item (`c1:50`, base64url). */
  cursor: 'YzE6NTA',
  requestId: '0f8e2f4c-7d9b-4b43-9a51-3c2d1e0f9a8b',
} as const;

/** The same field description, allowing `null`. */
export const orNull = <T extends ApiPropertyOptions>(options: T): T => ({ ...options, nullable: true });

/** A timestamp field: Unix time in milliseconds. */
export const millis = (description = 'Unix time in milliseconds', options: { nullable?: boolean } = {}) =>
  ({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    description,
    example: EXAMPLE.time,
    nullable: options.nullable,
  }) satisfies ApiPropertyOptions;

/** `count` of a paginated list. */
export const PAGE_COUNT = {
  type: 'integer',
  minimum: 0,
  maximum: PAGE_SIZE,
  description: `Number of items in this page (at most ${PAGE_SIZE})`,
  example: 1,
} satisfies ApiPropertyOptions;

/** `cursor` of a paginated list. */
export const NEXT_CURSOR = {
  type: String,
  nullable: true,
  description:
    'Opaque; pass it as the `cursor` query parameter to get the next page. `null` when there are no more results.',
  example: null,
} satisfies ApiPropertyOptions;

export const ErrorBody = schemaOf(
  { name: 'Error', description: 'Every error except authentication failures.' },
  {
    message: {
      description: 'What went wrong; validation failures name the field and the reason',
      example: COMMON_MESSAGES.nameRequired,
    },
  },
);

export const AuthErrorBody = schemaOf<{ message: string; code_name: AuthCode }>(
  {
    name: 'AuthError',
    description: 'Authentication and authorisation failures (HTTP 403): docs/api.md, Authentication.',
  },
  {
    message: { example: AUTH_FAILURES.invalid_api_key },
    code_name: { enum: Object.keys(AUTH_FAILURES), example: 'invalid_api_key' },
  },
);

export const IdBody = schemaOf(
  { name: 'Created', description: 'The identifier of the resource just created.' },
  { id: { example: EXAMPLE.projectId } },
);

export const MessageBody = schemaOf(
  { name: 'Message', description: 'A confirmation.' },
  { message: { example: PROJECT_ANSWERS.updated } },
);
