import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { answerWithProblemPage } from '../dashboard/dashboard-problem';
import { consoleLayout } from './console-pages';

/** Every failure of a console route as an HTML page with the console's layout and headers, never JSON. */
@Catch()
export class ConsoleExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  catch(error: unknown, host: ArgumentsHost) {
    return answerWithProblemPage(error, host, {
      logger: this.logger,
      unexpected: 'The console could not answer this request. Try again in a moment.',
      render: (request, { title, message }) => ({
        view: 'console/message',
        data: {
          ...consoleLayout(title, request.console),
          message,
          next: request.console
            ? { href: '/console/workspaces', label: 'Back to the console' }
            : { href: '/console', label: 'Sign in' },
        },
      }),
    });
  }
}
