import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DASHBOARD_SECURITY_HEADERS, NO_STORE, sendPage } from '../dashboard/dashboard-http';
import { problemPage } from '../dashboard/dashboard-problem';
import { consoleLayout } from './console-pages';

/** Every failure of a console route as an HTML page with the console's layout and headers, never JSON. */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  async catch(error: unknown, host: ArgumentsHost) {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, title, message } = problemPage(
      error,
      'The console could not answer this request. Try again in a moment.',
    );
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
