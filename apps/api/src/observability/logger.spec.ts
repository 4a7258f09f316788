import { Logger } from '@nestjs/common';
import { JsonLogger, logContext } from './logger';

/** A JsonLogger at `level` writing into an array, one parsed object per line. */
function capture(level: string) {
  const lines: string[] = [];
  const logger = new JsonLogger(level, { write: (text: string) => lines.push(text) });
  const parsed = () =>
    lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  return { logger, lines, parsed };
}

/** Runs `work` as a request hook chain would: inside the request's log context. */
function inRequest(id: string, work: () => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const hook = logContext.onRequest as unknown as (request: unknown, reply: unknown, done: () => void) => void;
    hook({ id }, {}, () => void work().then(resolve, reject));
  });
}

describe('the service log', () => {
  it('writes one JSON object per line in the request log’s shape, with the logging class as context', () => {
    const { logger, lines, parsed } = capture('info');
    logger.log('Listening', 'Main');
    expect(lines).toHaveLength(1);
    expect(lines[0].endsWith('}\n')).toBe(true);
    const [line] = parsed();
    expect(Object.keys(line)).toEqual(['level', 'time', 'service', 'context', 'msg']);
    expect(line).toMatchObject({ level: 30, service: 'workspace-operations', context: 'Main', msg: 'Listening' });
  });

  it('obeys LOG_LEVEL: NestJS’s verbose and debug lines only at trace and debug, nothing when silent', () => {
    const info = capture('info');
    info.logger.verbose('v', 'X');
    info.logger.debug('d', 'X');
    info.logger.warn('w', 'X');
    expect(info.parsed().map((l) => [l.level, l.msg])).toEqual([[40, 'w']]);

    const trace = capture('trace');
    trace.logger.verbose('v', 'X');
    trace.logger.debug('d', 'X');
    expect(trace.parsed().map((l) => l.level)).toEqual([10, 20]);

    const silent = capture('silent');
    silent.logger.fatal('f', 'X');
    silent.logger.error('e', new Error('boom'), 'X');
    expect(silent.lines).toEqual([]);
  });

  it('puts an error and its stack in fields, never on lines of their own', () => {
    const { logger, lines, parsed } = capture('info');
    const error = Object.assign(new Error('sweep failed'), { url: 'mongodb://wos:secret@db:27017' });
    logger.error('Slot reconciler sweep failed', error, 'Lifecycle'); // new Logger('Lifecycle').error(message, error)
    logger.error('GET /x failed', error.stack, 'HTTP'); // NestJS's (message, stack, context)
    logger.error('Unhandled', error.stack); // the static Logger: (message, stack)
    logger.error('No stack', undefined, 'HTTP');
    expect(lines.join('').split('\n').filter(Boolean)).toHaveLength(4);
    const [withError, withStack, staticStack, without] = parsed();
    expect(withError).toMatchObject({ context: 'Lifecycle', err: { type: 'Error', message: 'sweep failed' } });
    expect(withError.err.stack).toContain('sweep failed\n    at ');
    expect(lines.join('')).not.toContain('secret'); // an error's other fields stay out
    expect(withStack).toMatchObject({ context: 'HTTP', stack: error.stack, msg: 'GET /x failed' });
    expect(staticStack).toMatchObject({ stack: error.stack, msg: 'Unhandled' });
    expect(staticStack.context).toBeUndefined();
    expect(without).toEqual(expect.not.objectContaining({ stack: expect.anything() }));
  });

  it('carries the request id on every line logged on a request’s behalf, across awaits', async () => {
    const { logger, parsed } = capture('info');
    Logger.overrideLogger(logger);
    try {
      const work = new Logger('Work');
      logger.log('before', 'Main');
      await Promise.all([
        inRequest('req-a', async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          work.warn('for a');
        }),
        inRequest('req-b', async () => {
          await Promise.resolve();
          work.log('for b');
        }),
      ]);
      logger.log('after', 'Main');
    } finally {
      Logger.overrideLogger(false);
    }
    expect(parsed().map((l) => [l.msg, l.req_id])).toEqual([
      ['before', undefined],
      ['for b', 'req-b'],
      ['for a', 'req-a'],
      ['after', undefined],
    ]);
  });
});
