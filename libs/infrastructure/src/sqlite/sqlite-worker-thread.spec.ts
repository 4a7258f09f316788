import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteWorkerThread } from './sqlite-worker-thread';

type Request =
  { echo: string } | { exit: number } | { throwLater: string } | { fail: string } | { answerThenExit: string };

/** The thread's lifecycle with a stand-in worker (the serving side is the real one). */
describe('SqliteWorkerThread', () => {
  let dir: string;
  let script: string;
  const threads: SqliteWorkerThread<Request, string>[] = [];
  const open = () => {
    const thread = new SqliteWorkerThread<Request, string>(script, {}, 'Test write');
    threads.push(thread);
    return thread;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'worker-thread-'));
    script = join(dir, 'worker.js');
    writeFileSync(
      script,
      `const { serveRequests } = require(${JSON.stringify(join(__dirname, 'sqlite-worker-serve.js'))});
       serveRequests((request) => {
         if ('exit' in request) process.exit(request.exit);
         if ('throwLater' in request) setTimeout(() => { throw new Error(request.throwLater); });
         if ('fail' in request) throw new Error(request.fail);
         if ('answerThenExit' in request) { setImmediate(() => process.exit(0)); return request.answerThenExit; }
         return request.echo ?? 'later';
       }, () => undefined);`,
    );
  });
  afterEach(async () => {
    for (const thread of threads.splice(0)) await thread.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers requests, and rejects the one whose handling throws without ending the thread', async () => {
    const thread = open();
    await expect(thread.call({ echo: 'a' })).resolves.toBe('a');
    await expect(thread.call({ fail: 'bad row' })).rejects.toThrow('Test write failed: bad row');
    await expect(thread.call({ echo: 'b' })).resolves.toBe('b');
    expect(thread.threadsStarted).toBe(1);
  });

  it('rejects the request a thread ended on, and answers the next one from a new thread', async () => {
    const thread = open();
    await expect(thread.call({ echo: 'a' })).resolves.toBe('a');
    await expect(thread.call({ exit: 3 })).rejects.toThrow('Test write thread exited (code 3)');
    await expect(thread.call({ echo: 'b' })).resolves.toBe('b');
    expect(thread.threadsStarted).toBe(2);
  });

  it('replaces a thread that failed outside any request', async () => {
    const thread = open();
    await expect(thread.call({ throwLater: 'timer went wrong' })).resolves.toBe('later');
    // The uncaught error ends the thread; the next request finds it gone and starts another.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(thread.call({ echo: 'c' })).resolves.toBe('c');
    expect(thread.threadsStarted).toBe(2);
  });

  /** Blocks this thread (no event loop turn) long enough for the worker to answer, and more. */
  const blockFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

  it('hands over an answer posted just before its thread exited, not a rejection', async () => {
    const thread = open();
    await thread.call({ echo: 'started' });
    const answer = thread.call({ answerThenExit: 'written' });
    // The answer and the thread's exit are both pending by the time the event loop next turns.
    blockFor(300);
    await expect(answer).resolves.toBe('written');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(thread.call({ echo: 'next' })).resolves.toBe('next');
    expect(thread.threadsStarted).toBe(2);
  });

  it('refuses requests once closed, without starting a thread', async () => {
    const thread = open();
    await thread.call({ echo: 'a' });
    await thread.close();
    await expect(thread.call({ echo: 'b' })).rejects.toThrow('Test write thread is closed');
    expect(thread.threadsStarted).toBe(1);
  });
});
