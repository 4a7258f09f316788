import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggerService } from '@nestjs/common';
import type { onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import pino, { Logger as Pino } from 'pino';

/** `service` on every line, the request log's included. */
export const SERVICE_NAME = 'workspace-operations';

/**
 * The id of the request whose work is running (`request.id`: the caller's `x-request-id` or a
 * made-up one). Every line logged on its behalf carries it as `req_id`, as its request line does.
 */
const requestIds = new AsyncLocalStorage<string>();

/**
 * The hooks that enter the request's log context (registered in http/pipeline.ts). onRequest, the
 * first hook: its hooks and, for a request without a body, its handler run inside. preHandler
 * again: a body is read on the socket's events, outside it, so the handler of a request with a
 * body would otherwise run without its id.
 */
export const logContext: { onRequest: onRequestHookHandler; preHandler: preHandlerHookHandler } = {
  onRequest: (request, _reply, done) => requestIds.run(request.id, done),
  preHandler: (request, _reply, done) => requestIds.run(request.id, done),
};

/** Whole lines to standard output; one synchronous pino destination (sonic-boom) per process. */
export interface LineSink {
  write(text: string): unknown;
}
let stdout: LineSink | undefined;

/**
 * Standard output through pino's synchronous destination, which retries a pipe that is
 * momentarily full and handles partial writes: shared by the service's log and the request log,
 * so their lines never interleave within a line.
 */
export function stdoutLines(): LineSink {
  stdout ??= pino.destination({ dest: process.stdout.fd ?? 1, sync: true });
  return stdout;
}

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** A stack as NestJS passes it: a string whose second line is a frame. */
const STACK = /^.+\n\s+at .+/;

/**
 * NestJS's logger as JSON lines, pino's format (`level`, `time`, `service`, `req_id` within a
 * request, `context`, the fields, `msg`), one object per line on standard output, at the level of
 * LOG_LEVEL (NestJS's `verbose` is pino's `trace`, its `log` pino's `info`). An error goes in `err`
 * (`type`, `message`, `stack`) and a stack NestJS passes as text in `stack`: never a line of its own.
 *
 * NestJS's `Logger` appends the logging class's context as the last argument; `error` takes
 * `(message, stack?, context?)`, the service's own calls `(message, error)`.
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(level: string, sink: LineSink = stdoutLines()) {
    this.pino = pino(
      {
        level,
        base: { service: SERVICE_NAME },
        // What the text log showed of an error, no more: its other fields (a driver's error can
        // carry a connection string, a client's the request it sent) stay out of the log.
        serializers: { err: (error: Error) => ({ type: error.name, message: error.message, stack: error.stack }) },
        mixin: () => {
          const id = requestIds.getStore();
          return id === undefined ? {} : { req_id: id };
        },
      },
      sink as pino.DestinationStream,
    );
  }

  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    const rest = [...params];
    const failing = level === 'error' || level === 'fatal';
    if (failing && rest.length === 1 && typeof rest[0] === 'string' && STACK.test(rest[0])) {
      fields.stack = rest.pop();
    } else {
      if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
      if (
        failing &&
        rest.length > 0 &&
        (rest[rest.length - 1] === undefined || typeof rest[rest.length - 1] === 'string')
      )
        fields.stack = rest.pop();
    }
    if (fields.stack === undefined) delete fields.stack;
    const details: unknown[] = [];
    for (const param of rest) {
      if (param instanceof Error && fields.err === undefined) fields.err = param;
      else if (param !== undefined) details.push(param);
    }
    if (details.length > 0) fields.detail = details.length === 1 ? details[0] : details;
    if (message instanceof Error) {
      fields.err ??= message;
      this.pino[level](fields, message.message);
    } else if (typeof message === 'string') {
      this.pino[level](fields, message);
    } else {
      fields.detail ??= message;
      this.pino[level](fields);
    }
  }
}

const loggers = new Map<string, JsonLogger>();

/** The service's logger at `level` (one per level, so that main.ts and the app share it). */
export function serviceLogger(level: string): JsonLogger {
  let logger = loggers.get(level);
  if (!logger) loggers.set(level, (logger = new JsonLogger(level)));
  return logger;
}
