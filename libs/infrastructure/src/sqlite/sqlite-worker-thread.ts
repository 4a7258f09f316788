import { Worker } from 'node:worker_threads';

/** How long close() waits for the thread to end by itself before terminating it. */
const WORKER_EXIT_GRACE_MS = 10_000;

/**
 * A worker thread that owns one SQLite connection and answers requests in order, one at a time
 * (the other side is `serveRequests` in sqlite-worker-serve.js). The embedded stores use it to
 * keep their writes (a commit's fsync, a read model's index updates) off the API's event loop.
 *
 * A request still waiting when the thread fails or exits is rejected, never left waiting.
 */
export class SqliteWorkerThread<Request, Result> {
  private readonly worker: Worker;
  private readonly ready: Promise<void>;
  private readonly waiting = new Map<number, { resolve(result: Result): void; reject(e: unknown): void }>();
  private nextId = 1;
  private failed: Error | null = null;
  private readonly exited: Promise<void>;
  private hasExited = false;
  private isReady = false;

  constructor(
    script: string,
    workerData: Record<string, unknown>,
    /** Names the work in the error a failed request is rejected with ("Event store write"). */
    private readonly what: string,
  ) {
    // What a writer keeps between messages is a connection and its statements: a young
    // generation of a few MB holds a message's garbage (V8's default grows to tens of MB,
    // resident long after a burst such as a start-up catch-up).
    this.worker = new Worker(script, { workerData, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.hasExited = true;
        // Answers posted before the exit arrive before this event: what still waits never will.
        for (const waiter of this.waiting.values()) waiter.reject(this.failed ?? new Error(`${what} thread exited`));
        this.waiting.clear();
        resolve();
      }),
    );
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('message', () => {
        this.isReady = true;
        resolve();
      });
      this.worker.once('error', reject);
    });
    this.worker.on('message', (message: { id?: number; result?: Result; failure?: string }) => {
      if (message.id === undefined) return;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.failure !== undefined) waiter?.reject(new Error(`${what} failed: ${message.failure}`));
      else waiter?.resolve(message.result!);
    });
    this.worker.on('error', (error) => {
      this.failed = error;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    });
  }

  /**
   * Posts the request at once (not after an await: the caller's next synchronous work, such as
   * reading the next batch, must not hold the request back) and resolves with the thread's answer.
   */
  call(request: Request): Promise<Result> {
    if (!this.isReady) return this.ready.then(() => this.call(request));
    if (this.failed) return Promise.reject(this.failed);
    if (this.hasExited) return Promise.reject(new Error(`${this.what} thread exited`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, request });
    });
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    // The thread closes its database and exits on its own; terminate() only if it has not
    // within the grace period (a thread that failed to start, a write stuck on a lock).
    if (this.hasExited) return;
    this.worker.postMessage({ close: true });
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), WORKER_EXIT_GRACE_MS)),
    );
    const outcome = await Promise.race([this.exited, graceOver]);
    clearTimeout(timer);
    if (outcome === 'timeout') await this.worker.terminate();
  }
}
