import { HttpException } from '@nestjs/common';
import { DomainError } from '@app/domain';
import { WrongExpectedRevisionError } from '@app/application';

/** The five authentication failures of docs/api.md, Authentication, with their exact messages. */
export const AUTH_FAILURES = {
  invalid_api_key: 'Invalid API key',
  api_key_inactive: 'API key is not active',
  read_only_access: 'API key has read-only access',
  enterprise_required: 'API keys require an Enterprise plan',
  api_key_path_not_allowed: 'API key access not allowed for this endpoint',
  invalid_admin_token: 'Invalid admin token',
  operator_role_required:
    'This credential has the auditor role, which may only read: this request needs the operator role',
} as const;
export type AuthCode = keyof typeof AUTH_FAILURES;

export class AuthError extends Error {
  constructor(readonly code: AuthCode) {
    super(AUTH_FAILURES[code]);
  }
}

export interface ErrorResponse {
  status: number;
  body: { message: string; code_name?: string };
  headers?: Record<string, string>;
}

/**
 * An HTTP-level refusal that is not a domain rule (a malformed header, a key reused for another
 * request, a request still in progress), with the headers that help the client act on it.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}

/** The 503 of a request not answered in time (http/request-bounds.ts). */
export const REQUEST_TIMED_OUT =
  'The request did not finish in time and may still take effect; retry it (a POST with the same Idempotency-Key takes effect once)';

const DOMAIN_STATUS: Record<DomainError['kind'], number> = {
  validation: 400,
  not_found: 404,
  limit_reached: 429,
  conflict: 409,
  precondition_failed: 412,
};

/**
 * Every failure becomes `{ message }` (auth failures add `code_name`). Anything unexpected is a
 * 500 whose detail stays in the log, never in the response.
 */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof AuthError) {
    return { status: 403, body: { message: error.message, code_name: error.code } };
  }
  if (error instanceof HttpProblem) {
    return { status: error.status, body: { message: error.message }, headers: error.headers };
  }
  if (error instanceof DomainError) {
    return { status: DOMAIN_STATUS[error.kind], body: { message: error.message } };
  }
  if (error instanceof WrongExpectedRevisionError) {
    return { status: 409, body: { message: 'The resource was changed concurrently; retry the request' } };
  }
  if (error instanceof HttpException) {
    const response = error.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : typeof (response as { message?: unknown }).message === 'string'
          ? (response as { message: string }).message
          : error.message;
    return { status: error.getStatus(), body: { message } };
  }
  // Fastify's own request errors (body parsing, limits) carry a 4xx statusCode and a clear message.
  const raw = error as { statusCode?: unknown; message?: unknown };
  if (
    typeof raw?.statusCode === 'number' &&
    raw.statusCode >= 400 &&
    raw.statusCode < 500 &&
    typeof raw.message === 'string'
  ) {
    return { status: raw.statusCode, body: { message: raw.message } };
  }
  return { status: 500, body: { message: 'Internal server error' } };
}
