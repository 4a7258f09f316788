import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemPage } from './dashboard-problem';
import { DASHBOARD_SECURITY_HEADERS, NO_STORE, sendPage } from './dashboard-http';
import { layoutData } from './dashboard-view-data';

/**
 * Every failure of a dashboard route as an HTML page with the dashboard's headers, never the API's
 * JSON: refusals (sign-in, CSRF, role), the domain's answers (a key of another workspace is "not
 * found" like a missing one), and anything unexpected as a 500 whose detail stays in the log.
 */
@Catch()
export class DashboardExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Dashboard');

  async catch(error: unknown, host: ArgumentsHost) {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, title, message } = problemPage(
      error,
      'The dashboard could not answer this request. Try again in a moment.',
    );
    if (status >= 500) this.logger.error(`${request.method} ${request.url} failed`, (error as Error)?.stack);
    const signedIn = request.dashboard;
    try {
      const html = await reply.viewAsync('message', {
        ...layoutData(title, signedIn),
        message,
        next: signedIn ? { href: '/dashboard/api-keys', label: 'Back to the dashboard' } : null,
      });
      sendPage(reply, status, html);
    } catch (renderError) {
      // The page itself could not be made: the answer is still an answer, in plain text.
      this.logger.error('The error page could not be rendered', (renderError as Error)?.stack);
      void reply
        .code(status)
        .headers({ ...DASHBOARD_SECURITY_HEADERS, 'cache-control': NO_STORE })
        .type('text/plain; charset=utf-8')
        .send(`${title}: ${message}`);
    }
  }
}
