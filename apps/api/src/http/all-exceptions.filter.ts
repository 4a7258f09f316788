import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './errors';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost) {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    let response = toErrorResponse(exception);
    if (exception instanceof NotFoundException && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)/.test(exception.message)) {
      response = { status: 404, body: { message: `Route ${request.method} ${request.url.split('?')[0]} not found` } };
    }
    if (response.status >= 500) {
      this.logger.error(`${request.method} ${request.routeOptions?.url ?? 'unknown route'} failed (request ${request.id})`, (exception as Error)?.stack);
    }
    void reply.status(response.status).send(response.body);
  }
}
