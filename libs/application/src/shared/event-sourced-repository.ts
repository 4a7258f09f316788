import { randomUUID } from 'node:crypto';
import { Decider, DomainError, DomainEvent, fold, preconditionFailed } from '@app/domain';
import { Clock } from '../ports/clock.port';
import { EventStore, NewEvent, WrongExpectedRevisionError } from '../ports/event-store.port';
import { ReadYourWrites } from '../ports/read-your-writes.port';
import { CommandContext } from './command-context';
import { servingProjections } from './read-scope';

export interface Outcome<State> {
  /** Domain events this command produced (empty when it changed nothing). */
  events: DomainEvent[];
  /** Stream revision right after this command's events: the resource's version (ETag). */
  revision: number;
  /** Store position to wait for before the read models show this command (0: nothing written). */
  position: number;
  state: State;
  /**
   * Whether the read models serving the resource are known to show this command: true when it
   * wrote nothing or the wait saw it; false when the wait timed out or one of them parked an event
   * of the stream (the write is committed all the same), or when the caller chose not to wait.
   */
  visible: boolean;
}

export const STALE_IF_MATCH = 'The resource has changed since the version given in If-Match';

export interface ExecuteOptions {
  /** Default true: answer only once the read models show the change. */
  waitForReadModels?: boolean;
  /** Optimistic concurrency from the client (If-Match): the stream revision it last saw. */
  expectedRevision?: number;
}

interface Queued<State, Cmd> {
  decide: (state: State) => Cmd;
  expectedRevision?: number;
  context: CommandContext;
  resolve(outcome: Omit<Outcome<State>, 'visible'>): void;
  reject(error: unknown): void;
}

interface StreamQueue<State, Cmd> {
  decider: Decider<State, Cmd, DomainEvent>;
  waiting: Queued<State, Cmd>[];
  running: boolean;
}

const MAX_CONFLICT_RETRIES = 25;
const STATE_CACHE_SIZE = 20_000;

/**
 * Runs commands against event-sourced aggregates: load (from a cached snapshot plus the newer
 * events), decide, append with the expected revision.
 *
 * Commands for the same stream are queued and decided together: everything that arrived while
 * the previous append was in flight is decided in order against the evolving state and written
 * in one append. Concurrent changes to one resource therefore all land (none is lost to a
 * conflict) at the cost of one write, and a hot stream such as a workspace's project slots stays
 * fast. A conflict with another process re-reads the stream and decides the batch again.
 */
export class EventSourcedRepository {
  private readonly queues = new Map<string, StreamQueue<any, any>>();
  private readonly cache = new Map<string, { revision: number; state: unknown }>();

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly readModels: ReadYourWrites,
  ) {}

  /**
   * Decides and appends `command`, then (unless told otherwise) waits until the read models
   * show its events, so that a GET right after the answer sees the change. `command` may be a
   * value or a function of the current state. A DomainError from decide rejects only this command.
   */
  async execute<State, Cmd>(
    decider: Decider<State, Cmd, any>,
    streamId: string,
    command: Cmd | ((state: State) => Cmd),
    context: CommandContext,
    options: ExecuteOptions = {},
  ): Promise<Outcome<State>> {
    const outcome = await this.enqueue(decider, streamId, command, context, options.expectedRevision);
    if (outcome.position === 0) return { ...outcome, visible: true };
    if (options.waitForReadModels === false) return { ...outcome, visible: false };
    const projections = servingProjections(streamId);
    const visible = await this.readModels.waitFor(outcome.position, { projections, streamId });
    // Committed either way; whoever answers must say the read models may not show it yet.
    if (!visible) context.consistency?.pending.push(...(projections ?? ['all']));
    return { ...outcome, visible };
  }

  private enqueue<State, Cmd>(
    decider: Decider<State, Cmd, DomainEvent>,
    streamId: string,
    command: Cmd | ((state: State) => Cmd),
    context: CommandContext,
    expectedRevision: number | undefined,
  ): Promise<Omit<Outcome<State>, 'visible'>> {
    const decideFn = (typeof command === 'function' ? command : () => command) as (state: State) => Cmd;
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(streamId) as StreamQueue<State, Cmd> | undefined;
      if (!queue) {
        queue = { decider, waiting: [], running: false };
        this.queues.set(streamId, queue);
      }
      queue.waiting.push({ decide: decideFn, expectedRevision, context, resolve, reject });
      if (!queue.running) void this.drain(streamId, queue);
    });
  }

  /** Current state of a stream (for reads that need the aggregate, e.g. temporal reads). */
  async load<State>(decider: Pick<Decider<State, never, any>, 'initialState' | 'evolve'>, streamId: string) {
    return this.loadState(decider, streamId);
  }

  private async drain<State, Cmd>(streamId: string, queue: StreamQueue<State, Cmd>): Promise<void> {
    queue.running = true;
    try {
      while (queue.waiting.length > 0) {
        const batch = queue.waiting;
        queue.waiting = [];
        await this.runBatch(streamId, queue.decider, batch);
      }
    } finally {
      queue.running = false;
      if (queue.waiting.length === 0) this.queues.delete(streamId);
      else void this.drain(streamId, queue);
    }
  }

  private async runBatch<State, Cmd>(
    streamId: string,
    decider: Decider<State, Cmd, DomainEvent>,
    batch: Queued<State, Cmd>[],
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let loaded: { revision: number; state: State };
      try {
        loaded = await this.loadState(decider, streamId);
      } catch (error) {
        batch.forEach((q) => q.reject(error));
        return;
      }
      let { state } = loaded;
      let revision = loaded.revision;
      const toAppend: NewEvent[] = [];
      const results: ({ ok: Omit<Outcome<State>, 'position' | 'visible'>; writes: boolean } | { error: unknown })[] = [];
      for (const queued of batch) {
        try {
          // Checked against the revision this command would really act on, batch included.
          if (queued.expectedRevision !== undefined && queued.expectedRevision !== revision) {
            throw preconditionFailed(STALE_IF_MATCH);
          }
          const events = decider.decide(queued.decide(state), state);
          state = fold(decider, events, state);
          revision += events.length;
          toAppend.push(...events.map((e) => this.envelope(e, queued.context)));
          results.push({ ok: { events, revision, state }, writes: events.length > 0 });
        } catch (error) {
          results.push({ error });
        }
      }

      let position = 0;
      if (toAppend.length > 0) {
        try {
          const expectedRevision = loaded.revision === -1 ? 'no_stream' : loaded.revision;
          const appended = await this.store.appendToStream(streamId, toAppend, { expectedRevision });
          position = appended.position;
          this.remember(streamId, appended.nextRevision, state);
        } catch (error) {
          this.cache.delete(streamId);
          if (error instanceof WrongExpectedRevisionError && attempt < MAX_CONFLICT_RETRIES) {
            await new Promise((r) => setTimeout(r, Math.random() * 5 * (attempt + 1)));
            continue;
          }
          batch.forEach((q) => q.reject(error));
          return;
        }
      }
      batch.forEach((queued, i) => {
        const result = results[i];
        if ('error' in result) queued.reject(result.error);
        else queued.resolve({ ...result.ok, position: result.writes ? position : 0 });
      });
      return;
    }
  }

  private async loadState<State>(
    decider: Pick<Decider<State, never, DomainEvent>, 'initialState' | 'evolve'>,
    streamId: string,
  ): Promise<{ revision: number; state: State }> {
    const cached = this.cache.get(streamId) as { revision: number; state: State } | undefined;
    const fromRevision = cached ? cached.revision + 1 : 0;
    const newer = await this.store.readStream(streamId, { fromRevision });
    if (newer.length === 0 && cached) return cached;
    const base = cached ? cached.state : decider.initialState();
    const state = fold(decider, newer as unknown as DomainEvent[], base);
    const revision = newer.length > 0 ? newer[newer.length - 1].revision : (cached?.revision ?? -1);
    this.remember(streamId, revision, state);
    return { revision, state };
  }

  private remember(streamId: string, revision: number, state: unknown) {
    this.cache.delete(streamId);
    this.cache.set(streamId, { revision, state });
    if (this.cache.size > STATE_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }

  private envelope(event: DomainEvent, context: CommandContext): NewEvent {
    return {
      id: randomUUID(),
      type: event.type,
      schemaVersion: 1,
      data: event.data,
      metadata: {
        workspaceId: context.workspaceId,
        actor: context.actor,
        requestId: context.requestId,
        correlationId: context.requestId,
        causationId: context.causationId,
        recordedAt: this.clock.now(),
      },
    };
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
