import { HttpException } from '@nestjs/common';
import { DomainError } from '@app/domain';

/** A refusal the dashboard or the console answers with a page of its own (their exception filters). */
export class DashboardProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
    this.name = 'DashboardProblem';
  }
}

export const SIGN_IN_REQUIRED = () =>
  new DashboardProblem(
    401,
    'Sign in required',
    'You are not signed in, or your session has ended. Open a new sign-in link to continue.',
  );

export const CSRF_REFUSED = () =>
  new DashboardProblem(
    403,
    'Request refused',
    'This form could not be accepted: it did not come from a page of this dashboard or it has expired. Go back, reload the page and try again.',
  );

export const NOT_ALLOWED = (what: string) =>
  new DashboardProblem(403, 'Not allowed', `Your role does not allow you to ${what}.`);

export const LINK_REFUSED = () =>
  new DashboardProblem(
    400,
    'This sign-in link does not work',
    'The link is unknown, has expired or has already been used. Sign-in links work once, for a few minutes: ask your operator for a new one.',
  );

const DOMAIN_PAGES: Record<DomainError['kind'], { status: number; title: string }> = {
  validation: { status: 400, title: 'Check your input' },
  not_found: { status: 404, title: 'Not found' },
  limit_reached: { status: 429, title: 'Limit reached' },
  conflict: { status: 409, title: 'Conflict' },
  precondition_failed: { status: 412, title: 'Changed meanwhile' },
};

/**
 * What a page says of a failure, for the dashboard's and the console's exception filters: their
 * own refusals, the domain's answers, a framework's 4xx; anything else is a 500 saying
 * `unexpected`, whose detail stays in the log.
 */
export function problemPage(error: unknown, unexpected: string): { status: number; title: string; message: string } {
  if (error instanceof DashboardProblem) return { status: error.status, title: error.title, message: error.message };
  if (error instanceof DomainError) return { ...DOMAIN_PAGES[error.kind], message: error.message };
  if (error instanceof HttpException && error.getStatus() < 500)
    return { status: error.getStatus(), title: 'Request refused', message: error.message };
  const raw = error as { statusCode?: unknown; message?: unknown };
  if (typeof raw?.statusCode === 'number' && raw.statusCode >= 400 && raw.statusCode < 500)
    return { status: raw.statusCode, title: 'Request refused', message: String(raw.message) };
  return { status: 500, title: 'Something went wrong', message: unexpected };
}
