import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiParam,
  ApiQuery,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { STALE_IF_MATCH } from '@app/application';
import { requiredRoleOfMethod } from '../http/auth';
import { AUTH_FAILURES, AuthCode } from '../http/errors';
import { IF_MATCH_MESSAGES } from '../http/conditional';
import { AuthErrorBody, ErrorBody } from './schemas/common.schema';

/**
 * Small composed decorators for the OpenAPI document (openapi-document.ts). They only add
 * @nestjs/swagger metadata: no guard, pipe or validation rule reads it.
 */

/** Security scheme names (components.securitySchemes). */
export const API_KEY_SCHEME = 'api_key';
export const OPERATOR_SCHEME = 'operator_token';

/** When each authentication failure of docs/api.md, Authentication (and the operator's own) happens. */
const AUTH_CONDITIONS: Record<AuthCode, string> = {
  invalid_api_key: 'The key is missing, malformed or unknown',
  api_key_inactive: 'The key has been deactivated',
  read_only_access: 'A read_only key was used for a write (POST, PATCH, DELETE)',
  enterprise_required: "The key's workspace is not on the Enterprise plan",
  api_key_path_not_allowed: 'An API key (v1_...) was used on the operator API',
  invalid_admin_token: 'The operator token or credential is missing, wrong or revoked',
  operator_role_required: 'An auditor credential was used on a route that needs the operator role',
};

const forbidden = (codes: readonly AuthCode[]) =>
  ApiResponse({
    status: 403,
    description: 'Authentication failed: `code_name` says why',
    type: AuthErrorBody,
    examples: Object.fromEntries(
      codes.map((code) => [
        code,
        { summary: AUTH_CONDITIONS[code], value: { message: AUTH_FAILURES[code], code_name: code } },
      ]),
    ),
  });

/**
 * Applies a decorator of its own (`decorator()`) to every method of a controller class: a route
 * handler is a method, and on any other method swagger metadata is never read.
 */
function forEachMethod(target: { prototype: object }, decorator: (method: object) => MethodDecorator) {
  const prototype = target.prototype as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
    if (name !== 'constructor' && typeof descriptor?.value === 'function')
      decorator(descriptor.value as object)(prototype, name, descriptor);
  }
}

/** The 403 of a read: a read-only key may read (openapi-document.ts takes its example off GETs). */
export const READ_ONLY_ACCESS: AuthCode = 'read_only_access';

/**
 * Class decorator for the API-key routes (the default audience of http/auth.ts): the bearer
 * scheme, and the 403 answers each route can give (`read_only_access` only on writes: the
 * document leaves it out of reads, as a class decorator does not see a route's method).
 */
export function ApiKeyAuth(): ClassDecorator {
  return (target) => {
    ApiBearerAuth(API_KEY_SCHEME)(target);
    forEachMethod(target, () =>
      forbidden(['invalid_api_key', 'api_key_inactive', READ_ONLY_ACCESS, 'enterprise_required']),
    );
  };
}

/**
 * Class decorator for the operator API (`@OperatorOnly()`): the operator token or an operator
 * credential, never an API key; `operator_role_required` for an auditor on a route that needs more.
 */
export function ApiOperatorAuth(): ClassDecorator {
  return (target) => {
    ApiBearerAuth(OPERATOR_SCHEME)(target);
    // Method decorators run before class decorators: each route's declared role is known here.
    forEachMethod(target, (method) =>
      forbidden(
        requiredRoleOfMethod(method) === 'auditor'
          ? ['invalid_admin_token', 'api_key_path_not_allowed']
          : ['invalid_admin_token', 'api_key_path_not_allowed', 'operator_role_required'],
      ),
    );
  };
}

export type ErrorStatus = 400 | 404 | 409 | 412 | 422 | 429;

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid request: `message` names the field and the reason',
  404: 'Not found; a resource of another workspace answers exactly like a missing one',
  409: 'Conflict with the current state of the resource',
  412: 'Precondition failed: the resource is no longer at the version named in If-Match',
  422: 'Unprocessable request',
  429: 'Too many requests',
};

const exampleKey = (message: string) =>
  message
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 60)
    .replace(/^_+|_+$/g, '');

/**
 * One error answer, `{ message }`, with the messages it can give as examples. Several for one
 * status merge their examples (and their descriptions, so decorators that add examples to another
 * one's status pass an empty description).
 */
const errorResponse = (
  status: ErrorStatus,
  messages: string | readonly string[],
  description: string = ERROR_DESCRIPTIONS[status],
) =>
  ApiResponse({
    status,
    description,
    type: ErrorBody,
    examples: Object.fromEntries(
      (typeof messages === 'string' ? [messages] : messages).map((message) => [
        exampleKey(message),
        { summary: message, value: { message } },
      ]),
    ),
  });

/**
 * The error answers of an operation, each `{ message }`, with the messages it can give as examples:
 * `@ApiErrors({ 400: ['name is required', ...], 404: 'Project not found' })`.
 */
export function ApiErrors(errors: Partial<Record<ErrorStatus, string | readonly string[]>>) {
  return applyDecorators(
    ...Object.entries(errors).map(([status, messages]) => errorResponse(Number(status) as ErrorStatus, messages!)),
  );
}

/**
 * A JSON request body (the DTO's schema) with whole, consistent example requests: Swagger UI
 * offers them by name, and "Try it out" starts from the one chosen.
 */
export const ApiJsonBody = (type: Type<unknown>, examples: Record<string, { summary: string; value: object }>) =>
  applyDecorators(ApiExtraModels(type), ApiBody({ required: true, schema: { $ref: getSchemaPath(type) }, examples }));

/** `?cursor=` of a paginated list. */
export const ApiCursorQuery = () =>
  ApiQuery({
    name: 'cursor',
    required: false,
    type: String,
    description:
      'The `cursor` of the previous page; omit it for the first page. A cursor from another list is refused (400 `cursor is invalid`).',
  });

/** A path parameter holding an identifier. */
export const ApiIdParam = (name: string, description: string, example: string) =>
  ApiParam({ name, type: String, description, example });

/** `?as_of=` of a temporal read. */
export const ApiAsOfQuery = (resource: string) =>
  ApiQuery({
    name: 'as_of',
    required: false,
    type: 'integer',
    description: `Unix time in milliseconds: the ${resource} as it was at that instant, rebuilt from its events (404 if it did not exist then).`,
    example: 1767225600000,
  });

/** The `ETag` header of a response that shows one version of a resource (http/conditional.ts). */
export const ETAG_HEADER = {
  ETag: {
    description:
      'The version of the resource (its revision) as a strong entity tag; send it back in If-Match to make a write conditional.',
    schema: { type: 'string', example: '"3"' },
  },
} as const;

/**
 * `If-Match` of a conditional write (http/conditional.ts): the write happens only while the
 * resource is at that version; otherwise 412.
 */
export const ApiIfMatch = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'Optional optimistic concurrency: the ETag of the version the change is based on (e.g. `"3"`), or `*`. A stale or weak tag is refused with 412.',
      schema: { type: 'string', example: '"3"' },
    }),
    errorResponse(400, IF_MATCH_MESSAGES.format, ''),
    errorResponse(412, [STALE_IF_MATCH, IF_MATCH_MESSAGES.weak]),
  );

/** `If-None-Match` of a read that answers 304 when the client's copy is current. */
export const ApiIfNoneMatch = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current.',
      schema: { type: 'string', example: '"3"' },
    }),
    ApiResponse({
      status: 304,
      description: 'Not modified: the copy named in If-None-Match is current',
      headers: ETAG_HEADER,
    }),
  );
