import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** How long close() waits for the thread to end by itself before terminating it. */
const WORKER_EXIT_GRACE_MS = 10_000;

interface Waiter<Result> {
  resolve(result: Result): void;
  reject(e: unknown): void;
}

/** One thread's life: started, ready, and at some point ended (by close(), or by a failure). */
interface Running<Result> {
  worker: Worker;
  ready: Promise<void>;
  isReady: boolean;
  exited: Promise<void>;
  hasExited: boolean;
  /** Why the thread ended, when it did not end by close(). */
  failed: Error | null;
  waiting: Map<number, Waiter<Result>>;
  /**
   * Where the thread posts its answers: a channel of its own, read on its 'message' events, and
   * synchronously once more when the thread exits (see `start`).
   */
  answers: MessagePort;
  /** Hands one answer to the request waiting for it. */
  settle(message: Answer<Result>): void;
}

interface Answer<Result> {
  id?: number;
  result?: Result;
  failure?: string;
}

/**
 * A worker thread that owns one SQLite connection and answers requests in order, one at a time
 * (the other side is `serveRequests` in sqlite-worker-serve.js). The embedded stores use it to
 * keep their writes (a commit's fsync, a read model's index updates) off the API's event loop.
 *
 * Answers are handed to the requests waiting for them as they arrive, on the answer port's
 * 'message' events: a request's continuation runs in the event loop's turn that brings its answer.
 *
 * A request still waiting when the thread fails or exits is rejected, never left waiting; its
 * outcome is unknown to the caller, as with any write whose answer was lost (an append is retried
 * by its event ids, a projection batch by its checkpoint). A thread that ended without being
 * closed (out of memory, an error outside a request) is replaced by a new one on the next request:
 * one failure does not leave every later write failing until the process is restarted.
 */
export class SqliteWorkerThread<Request, Result> {
  private thread: Running<Result>;
  private nextId = 1;
  private closing = false;
  /** Threads started, the first included (for tests and diagnostics). */
  private started = 0;

  constructor(
    private readonly script: string,
    private readonly workerData: Record<string, unknown>,
    /** Names the work in the error a failed request is rejected with ("Event store write"). */
    private readonly what: string,
  ) {
    this.thread = this.start();
  }

  get threadsStarted(): number {
    return this.started;
  }

  private start(): Running<Result> {
    this.started++;
    // What a writer keeps between messages is a connection and its statements: a young
    // generation of a few MB holds a message's garbage (V8's default grows to tens of MB,
    // resident long after a burst such as a start-up catch-up).
    const { port1: answers, port2 } = new MessageChannel();
    const worker = new Worker(this.script, {
      workerData: { ...this.workerData, answerPort: port2 },
      transferList: [port2],
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    const waiting = new Map<number, Waiter<Result>>();
    const settle = (message: Answer<Result>) => {
      if (message.id === undefined) return;
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.failure !== undefined) waiter?.reject(new Error(`${this.what} failed: ${message.failure}`));
      else waiter?.resolve(message.result!);
    };
    // `ready` and `exited` are set below, before anything can read them.
    const thread = {
      worker,
      isReady: false,
      hasExited: false,
      failed: null,
      waiting,
      answers,
      settle,
    } as Running<Result>;
    // The port does not keep the process alive: the worker does, as long as it runs.
    answers.on('message', thread.settle);
    answers.unref();
    const rejectWaiting = (error: Error) => {
      for (const waiter of thread.waiting.values()) waiter.reject(error);
      thread.waiting.clear();
    };
    thread.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        thread.hasExited = true;
        thread.failed ??= this.closing ? null : new Error(`${this.what} thread exited (code ${code})`);
        // Answers posted before the exit are in the port's queue by now: taken first, they are
        // not mistaken for lost. What still waits after them never will be answered.
        takeFrom(thread);
        rejectWaiting(thread.failed ?? new Error(`${this.what} thread exited`));
        answers.close();
        resolve();
      }),
    );
    thread.ready = new Promise((resolve, reject) => {
      worker.once('message', () => {
        thread.isReady = true;
        resolve();
      });
      worker.once('error', reject);
    });
    // A start that fails is reported to the requests waiting for it, not as an unhandled rejection.
    thread.ready.catch(() => undefined);
    worker.on('error', (error) => {
      thread.failed = error;
      rejectWaiting(error);
    });
    return thread;
  }

  /**
   * Posts the request at once (not after an await: the caller's next synchronous work, such as
   * reading the next batch, must not hold the request back) and resolves with the thread's answer.
   */
  call(request: Request): Promise<Result> {
    if (this.closing) return Promise.reject(new Error(`${this.what} thread is closed`));
    let thread = this.thread;
    if (thread.hasExited || (thread.failed && thread.isReady)) {
      // Ended by a failure: a new thread takes the next requests. The old one, if still alive
      // after an 'error', is ended; its waiting requests have been rejected already.
      if (!thread.hasExited) void thread.worker.terminate();
      thread = this.thread = this.start();
    }
    if (!thread.isReady) return thread.ready.then(() => this.call(request));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.waiting.set(id, { resolve, reject });
      thread.worker.postMessage({ id, request });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const thread = this.thread;
    await thread.ready.catch(() => undefined);
    // The thread closes its database and exits on its own; terminate() only if it has not
    // within the grace period (a thread that failed to start, a write stuck on a lock).
    if (thread.hasExited) return;
    thread.worker.postMessage({ close: true });
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), WORKER_EXIT_GRACE_MS)),
    );
    const outcome = await Promise.race([thread.exited, graceOver]);
    clearTimeout(timer);
    if (outcome === 'timeout') await thread.worker.terminate();
  }
}

function takeFrom<Result>(thread: Running<Result>): void {
  for (let arrived = receiveMessageOnPort(thread.answers); arrived; arrived = receiveMessageOnPort(thread.answers))
    thread.settle(arrived.message as Answer<Result>);
}
