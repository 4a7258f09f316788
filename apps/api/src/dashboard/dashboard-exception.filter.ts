import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { answerWithProblemPage } from './dashboard-problem';
import { layoutData } from './dashboard-view-data';

/**
 * Every failure of a dashboard route as an HTML page with the dashboard's headers, never the API's
 * JSON: refusals (sign-in, CSRF, role), the domain's answers (a key of another workspace is "not
 * found" like a missing one), and anything unexpected as a 500 whose detail stays in the log.
 */
@Catch()
export class DashboardExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Dashboard');

  catch(error: unknown, host: ArgumentsHost) {
    return answerWithProblemPage(error, host, {
      logger: this.logger,
      unexpected: 'The dashboard could not answer this request. Try again in a moment.',
      render: (request, { title, message }) => ({
        view: 'message',
        data: {
          ...layoutData(title, request.dashboard),
          message,
          next: request.dashboard ? { href: '/dashboard/api-keys', label: 'Back to the dashboard' } : null,
        },
      }),
    });
  }
}
