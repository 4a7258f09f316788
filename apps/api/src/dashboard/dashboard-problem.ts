import { ArgumentsHost, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@app/domain';
import { DASHBOARD_SECURITY_HEADERS, NO_STORE, sendPage } from './dashboard-http';

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

/** How a surface (the dashboard, the console) draws its problem page: the view and its data. */
export type ProblemView = (
  request: FastifyRequest,
  page: { title: string; message: string },
) => { view: string; data: Record<string, unknown> };

/**
 * Answers a failure of a page route with the surface's problem page (a 5xx logged with its
 * stack); when the page itself cannot be made, the answer is still given, in plain text.
 */
export async function answerWithProblemPage(
  error: unknown,
  host: ArgumentsHost,
  options: { logger: Logger; unexpected: string; render: ProblemView },
): Promise<void> {
  const request = host.switchToHttp().getRequest<FastifyRequest>();
  const reply = host.switchToHttp().getResponse<FastifyReply>();
  const { status, title, message } = problemPage(error, options.unexpected);
  if (status >= 500) options.logger.error(`${request.method} ${request.url} failed`, (error as Error)?.stack);
  try {
    const { view, data } = options.render(request, { title, message });
    sendPage(reply, status, await reply.viewAsync(view, data));
  } catch (renderError) {
    options.logger.error('The error page could not be rendered', (renderError as Error)?.stack);
    void reply
      .code(status)
      .headers({ ...DASHBOARD_SECURITY_HEADERS, 'cache-control': NO_STORE })
      .type('text/plain; charset=utf-8')
      .send(`${title}: ${message}`);
  }
}
