import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './errors';

/** Unknown paths are echoed in the 404 message; a 10 kB path is not worth echoing whole. */
const MAX_ECHOED_PATH = 200;

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    // The request timeout already answered; the handler failing afterwards has no one to tell.
    if (reply.sent) return;
    let response = toErrorResponse(exception);
    if (
      exception instanceof NotFoundException &&
      /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)/.test(exception.message)
    ) {
      const path = request.url.split('?')[0];
      const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
      response = { status: 404, body: { message: `Route ${request.method} ${shown} not found` } };
    }
    if (response.status === 500) {
      this.logger.error(
        `${request.method} ${request.routeOptions?.url ?? 'unknown route'} failed (request ${request.id})`,
        (exception as Error)?.stack,
      );
    } else if (response.status > 500) {
      const route = request.routeOptions?.url ?? 'unknown route';
      this.logger.warn(
        `${request.method} ${route} answered ${response.status}: ${response.body.message} (request ${request.id})`,
      );
    }
    if (response.headers) void reply.headers(response.headers);
    void reply.status(response.status).send(response.body);
  }
}
