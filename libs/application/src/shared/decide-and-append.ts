import { Clock } from '../ports/clock.port';
import { EventStore, WrongExpectedRevisionError } from '../ports/event-store.port';
import { BatchView } from './batch-view';
import { CommandContext } from './command-context';
import { StreamLoader } from './stream-loader';
import { Unit, UnitOfWork } from './unit-of-work';

/** A unit of work waiting to be handled, and how to answer whoever waits for it. */
export interface PendingUnit {
  /** Loads and decides through the unit only: it may run more than once (after a conflict). */
  work: (unit: UnitOfWork) => Promise<unknown>;
  context: CommandContext;
  resolve(decided: Decided<unknown>): void;
  reject(error: unknown): void;
}

/** What a unit of work came to, once its events are in the store. */
export interface Decided<Result> {
  result: Result;
  /** Store position of the write (0 when the unit wrote nothing). */
  position: number;
  /**
   * Streams this unit wrote to: what its answer waits for the read models of. Not the whole
   * batch's: each create of a batch of N would wait on all N streams (N² waits a batch).
   */
  written: string[];
}

export interface CommandSide {
  store: EventStore;
  loader: StreamLoader;
  clock: Clock;
}

/** Conflicts in a row after which the batch fails with the last one. */
const MAX_CONFLICT_RETRIES = 25;

/**
 * Handles a batch of units of work the way one command is handled: decide on the current state,
 * append with the expected revisions, decide again on a conflict. Answers every unit of the batch;
 * never rejects.
 *
 * 1. Decide. The units run in order on one view of the streams, each seeing what the ones before
 *    it decided. A unit that throws (a refused command, a store that could not be read for it)
 *    fails alone and leaves nothing behind.
 * 2. Append. Everything decided is written in one append, conditional on every stream a finished
 *    unit looked at still being at the revision it was loaded at.
 * 3. Retry. If another writer moved one of them, the whole batch is decided again on the newer
 *    events (only those are read: held states are never mutated, see state-cache.ts).
 *
 * The first attempt decides on the states held in memory without reading them, because the
 * append checks them. An answer that no append will check (nothing written, or a command refused)
 * must not rest on a state another process has moved past: those streams are read first, and the
 * batch decided again if one has moved.
 */
export async function decideAndAppend(batch: readonly PendingUnit[], { store, loader, clock }: CommandSide) {
  for (let attempt = 0; ; attempt++) {
    // 1. Decide.
    const view = new BatchView(loader, attempt === 0);
    const outcomes: ({ result: unknown; written: string[] } | { error: unknown })[] = [];
    for (const pending of batch) {
      const unit = new Unit(view, pending.context, clock);
      try {
        const result = await pending.work(unit);
        outcomes.push({ result, written: unit.finish() });
      } catch (error) {
        outcomes.push({ error });
      }
    }

    // An answer no append will check is confirmed first.
    const appends = view.appends();
    const writes = appends.some((a) => a.events.length > 0);
    const refused = outcomes.some((outcome) => 'error' in outcome);
    if (view.optimistic && (!writes || refused)) {
      let current: boolean;
      try {
        current = await view.confirm();
      } catch (error) {
        return rejectAll(batch, error); // the store could not be read: nothing is answered
      }
      if (!current) continue;
    }

    // 2. Append (3. Retry).
    let position = 0;
    if (writes) {
      try {
        const written = await store.appendToStreams(appends);
        position = Math.max(...written.map((w) => w.position));
        view.holdNewStates();
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_CONFLICT_RETRIES) {
          return rejectAll(batch, error);
        }
        // A first conflict is most often a held state that another process has moved: decided
        // again at once. A later one is a race with another writer: back off a little.
        if (attempt > 0) await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
        continue;
      }
    }

    // Answer each unit: its result, or its own error.
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if ('error' in outcome) pending.reject(outcome.error);
      else {
        const { result, written } = outcome;
        pending.resolve({ result, position: written.length > 0 ? position : 0, written });
      }
    });
    return;
  }
}

function rejectAll(batch: readonly PendingUnit[], error: unknown): void {
  for (const pending of batch) pending.reject(error);
}
