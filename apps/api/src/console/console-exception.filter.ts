import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '@app/domain';
import { DASHBOARD_SECURITY_HEADERS, NO_STORE, sendPage } from '../dashboard/dashboard-http';
import { DashboardProblem } from '../dashboard/dashboard-problem';
import { consoleLayout } from './console-pages';

const DOMAIN_STATUS: Record<DomainError['kind'], number> = {
  validation: 400,
  not_found: 404,
  limit_reached: 429,
  conflict: 409,
  precondition_failed: 412,
};

/** Every failure of a console route as an HTML page with the console's layout and headers, never JSON. */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  async catch(error: unknown, host: ArgumentsHost) {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, title, message } = pageOf(error);
    if (status >= 500) this.logger.error(`${request.method} ${request.url} failed`, (error as Error)?.stack);
    try {
      const html = await reply.viewAsync('console/message', {
        ...consoleLayout(title, request.console),
        message,
        next: request.console
          ? { href: '/console/workspaces', label: 'Back to the console' }
          : { href: '/console', label: 'Sign in' },
      });
      sendPage(reply, status, html);
    } catch (renderError) {
      this.logger.error('The error page could not be rendered', (renderError as Error)?.stack);
      void reply
        .code(status)
        .headers({ ...DASHBOARD_SECURITY_HEADERS, 'cache-control': NO_STORE })
        .type('text/plain; charset=utf-8')
        .send(`${title}: ${message}`);
    }
  }
}

function pageOf(error: unknown): { status: number; title: string; message: string } {
  if (error instanceof DashboardProblem) return { status: error.status, title: error.title, message: error.message };
  if (error instanceof DomainError)
    return { status: DOMAIN_STATUS[error.kind], title: 'Request refused', message: error.message };
  if (error instanceof HttpException && error.getStatus() < 500)
    return { status: error.getStatus(), title: 'Request refused', message: error.message };
  return { status: 500, title: 'Something went wrong', message: 'The console could not answer this request.' };
}
