import { setImmediate } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { EventStore, START } from '../ports/event-store.port';
import { CollectionSpec, ReadModelStore, StoredDocument, WriteOp } from '../ports/read-model.port';
import { ProjectionEngine, ProjectorOnlyError } from './projection-engine';
import { coalesce } from './coalesce';
import { stampOf } from './event-store-stamp';
import { eventFilter, Projector } from './projector';

export interface RebuildProgress {
  projection: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  /** Events read from the store so far. */
  processed: number;
  /** Store position reached, and the head when the rebuild started (progress = position / head). */
  position: number;
  head: number;
  eventsPerSecond: number;
  etaSeconds: number | null;
  startedAt: number;
  finishedAt: number | null;
  error: string | null;
}

export interface ProjectionStatus {
  name: string;
  /** The store position applied, as the projector stored it with the read models. */
  checkpoint: number;
  head: number;
  /**
   * Events not yet applied, counted (not store positions: on EventStoreDB those are log bytes),
   * up to the count asked for; `lagCapped` says the real lag is larger.
   */
  lag: number;
  lagCapped: boolean;
  rebuild: RebuildProgress | null;
}

/**
 * `projector`: this process runs the projections (the one writer of the read models).
 * `replica`: an API process that only reads them (PROJECTIONS=external in the service).
 */
export type ProjectionRole = 'projector' | 'replica';

export interface MaintenanceOptions {
  role?: ProjectionRole;
  clock?: () => number;
}

/** How far `status()` counts a lag by default: beyond it, reading more events tells nobody anything. */
export const STATUS_LAG_COUNT = 10_000;

export interface Difference {
  projection: string;
  collection: string;
  id: string;
  kind: 'missing' | 'unexpected' | 'different';
  expected?: unknown;
  actual?: unknown;
}

export interface VerifyReport {
  position: number;
  documents: number;
  differences: Difference[];
  /** True when more differences existed than are listed. */
  truncated: boolean;
}

/**
 * Events per replay step: one read of the store and one read-model transaction. Measured over a
 * million events (docs/performance.md): 1,000 and 2,000 cost the same CPU; 5,000 costs a fifth more,
 * as a step's events and ops outlive the young generation and the GC has to promote them.
 */
const BATCH = 2000;
/**
 * Read-model writes of a replay handed over and not yet landed, at most. With one, the replay
 * waits for the writer thread a few milliseconds at a time over the whole run: on two shared cores
 * the writer is not always running when its batch arrives (docs/performance.md, "Decisions that
 * hold"). Each is one batch's encoded documents.
 */
const WRITES_IN_FLIGHT = 3;
const MAX_DIFFERENCES = 1000;
const REBUILD = '__next';
const VERIFY = '__verify';

/**
 * Operator tools over the projections, run inside the serving process so that one writer
 * owns each read model:
 *
 * - rebuild (blue/green): replays the store into fresh collections beside the live ones while the
 *   API keeps serving from the live ones, then, with live application paused for a moment, applies
 *   the last few events and swaps the fresh collections in with their checkpoint;
 * - verify: replays the store into scratch collections up to the live checkpoint and reports every
 *   document of the live read models that differs.
 */
export class ProjectionMaintenance {
  private readonly progress = new Map<string, RebuildProgress>();
  /** The verification running or last run: the next one starts after it. */
  private verifying: Promise<unknown> = Promise.resolve();
  readonly role: ProjectionRole;
  private readonly clock: () => number;

  constructor(
    private readonly engine: ProjectionEngine,
    private readonly events: EventStore,
    private readonly read: ReadModelStore,
    options: MaintenanceOptions = {},
  ) {
    this.role = options.role ?? 'projector';
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Each projection's checkpoint as stored with the read models (the projector writes it in the
   * transaction of each batch, so every process, replica or projector, reports the same truth),
   * the head, and the lag in events counted up to `lagCount` (one read of at most that many
   * events past the lowest checkpoint: cheap enough for /ready).
   */
  async status(options: { lagCount?: number } = {}): Promise<ProjectionStatus[]> {
    const limit = options.lagCount ?? STATUS_LAG_COUNT;
    const [stored, head] = await Promise.all([this.read.getCheckpoints(), this.events.headPosition()]);
    const names = this.engine.projectorNames();
    const checkpoints = names.map((name) => stored[name] ?? START);
    const lags = await this.eventsAfter(checkpoints, head, limit);
    return names.map((name, i) => ({
      name,
      checkpoint: checkpoints[i],
      head,
      lag: Math.min(lags[i], limit),
      lagCapped: lags[i] > limit,
      rebuild: this.progress.get(name) ?? null,
    }));
  }

  /**
   * Parked events (dead letters) per projection, every projection named (0 when none). From the
   * read store, so a replica that does not run the projections reports them too; /ready and
   * /metrics both show it.
   */
  async deadLetterCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = Object.fromEntries(this.engine.projectorNames().map((name) => [name, 0]));
    for (const letter of await this.read.listDeadLetters())
      counts[letter.projection] = (counts[letter.projection] ?? 0) + 1;
    return counts;
  }

  /** Events after each checkpoint up to `head`, each counted up to `limit + 1`. */
  private async eventsAfter(checkpoints: number[], head: number, limit: number): Promise<number[]> {
    const counts = checkpoints.map(() => 0);
    let after = Math.min(...checkpoints);
    while (after < head && counts.some((n) => n <= limit)) {
      const wanted = Math.max(...counts.map((n) => (n <= limit ? limit + 1 - n : 0)));
      const page = await this.events.readAll({ after, maxCount: Math.min(BATCH, wanted) });
      if (page.length === 0) break;
      for (const event of page) {
        if (event.position > head) break;
        checkpoints.forEach((checkpoint, i) => {
          if (event.position > checkpoint) counts[i]++;
        });
      }
      after = page[page.length - 1].position;
    }
    return counts;
  }

  /** Refuses what only the projector may run, here or when its engine is not running. */
  private requireProjector(operation: string) {
    if (this.role !== 'projector' || !this.engine.running()) throw new ProjectorOnlyError(operation);
  }

  /**
   * Drops what a rebuild or a verification interrupted by a crash left behind (their fresh
   * collections and checkpoints), before the projections start: a rebuild starts over from the
   * beginning anyway, so nothing is lost by starting it again. Returns the projections cleaned.
   */
  async cleanUpInterrupted(): Promise<string[]> {
    if (this.role !== 'projector') return [];
    const stored = await this.read.getCheckpoints();
    const cleaned: string[] = [];
    for (const name of this.engine.projectorNames()) {
      const projector = this.projector(name);
      for (const suffix of [REBUILD, VERIFY]) {
        const checkpoint = `${name}${suffix}`;
        if (checkpoint in stored) cleaned.push(checkpoint);
        // Dropped even without a checkpoint: a crash can come before the first batch is stored.
        await this.read.drop(
          projector.collections.map((c) => `${c.name}${suffix}`),
          [checkpoint],
        );
      }
    }
    return cleaned;
  }

  /** Marks projections as waiting for their turn in a rebuild of several. */
  queue(names: string[]): void {
    for (const name of names) {
      this.projector(name);
      this.progress.set(name, this.startingProgress(name, 'queued'));
    }
  }

  /** A rebuild's progress before its first event. */
  private startingProgress(name: string, state: 'queued' | 'running'): RebuildProgress {
    return {
      projection: name,
      state,
      processed: 0,
      position: START,
      head: 0,
      eventsPerSecond: 0,
      etaSeconds: null,
      startedAt: this.clock(),
      finishedAt: null,
      error: null,
    };
  }

  /**
   * Starts a rebuild and returns at once with its first progress record; `done` resolves when the
   * swap happened (or rejects). Only one rebuild per projection runs at a time.
   */
  startRebuild(name: string): { progress: RebuildProgress; done: Promise<RebuildProgress> } {
    const projector = this.projector(name);
    this.requireProjector('A rebuild');
    const current = this.progress.get(name);
    if (current?.state === 'running') return { progress: current, done: this.waitFor(name) };
    const progress = this.startingProgress(name, 'running');
    this.progress.set(name, progress);
    const done = this.rebuild(projector, progress).then(
      () => {
        progress.state = 'done';
        progress.finishedAt = this.clock();
        progress.etaSeconds = 0;
        return progress;
      },
      (error: unknown) => {
        progress.state = 'failed';
        progress.finishedAt = this.clock();
        progress.error = error instanceof Error ? error.message : String(error);
        throw error;
      },
    );
    done.catch(() => undefined);
    return { progress, done };
  }

  private waitFor(name: string): Promise<RebuildProgress> {
    return new Promise((resolve, reject) => {
      const poll = () => {
        const p = this.progress.get(name)!;
        if (p.state === 'done') resolve(p);
        else if (p.state === 'failed') reject(new Error(p.error ?? 'rebuild failed'));
        else setTimeout(poll, 50);
      };
      poll();
    });
  }

  private async rebuild(projector: Projector, progress: RebuildProgress): Promise<void> {
    const shadow = await this.prepareShadow(projector, REBUILD);
    progress.head = await this.events.headPosition();
    const started = this.clock();
    const onBatch = (count: number, position: number) => {
      progress.processed += count;
      progress.position = position;
      const seconds = Math.max((this.clock() - started) / 1000, 0.001);
      progress.eventsPerSecond = Math.round(progress.processed / seconds);
      const remaining = Math.max(0, progress.head - position);
      const perPosition = position > 0 ? seconds / position : null;
      progress.etaSeconds = perPosition === null ? null : Math.round(remaining * perPosition);
    };
    // Catch up while the live projection keeps serving...
    let position = await this.replay(projector, shadow, START, Number.MAX_SAFE_INTEGER, onBatch, () =>
      this.engine.checkpointOf(projector.name),
    );
    // ...then close the last gap and switch, with live application paused.
    const replayed = await this.events.identity();
    await this.engine.exclusive(async () => {
      const target = this.engine.checkpointOf(projector.name);
      position = await this.replay(projector, shadow, position, target, onBatch);
      await this.read.swap(
        shadow.pairs.map(({ shadow: from, live: to }) => ({ from, to })),
        { [projector.name]: target },
        [shadow.checkpoint],
      );
      // The read models hold what this store's events made: they are stamped with it.
      await this.read.apply([stampOf(replayed)], {});
    });
  }

  /**
   * Replays every projection into scratch collections and compares them with the live ones.
   * Verifications run one after another: they share the scratch collections' names, and one that
   * dropped them under another's comparison would fail it.
   */
  async verify(): Promise<VerifyReport> {
    this.requireProjector('A verification');
    const run = this.verifying.then(() => this.verifyNow());
    this.verifying = run.catch(() => undefined);
    return run;
  }

  private async verifyNow(): Promise<VerifyReport> {
    const report: VerifyReport = { position: 0, documents: 0, differences: [], truncated: false };
    for (const name of this.engine.projectorNames()) {
      const projector = this.projector(name);
      const shadow = await this.prepareShadow(projector, VERIFY);
      try {
        let position = await this.replay(
          projector,
          shadow,
          START,
          Number.MAX_SAFE_INTEGER,
          () => undefined,
          () => this.engine.checkpointOf(name),
        );
        await this.engine.exclusive(async () => {
          const target = this.engine.checkpointOf(name);
          position = await this.replay(projector, shadow, position, target, () => undefined);
          report.position = Math.max(report.position, target);
          for (const { live, shadow: expectedCollection } of shadow.pairs) {
            await this.compare(name, live, expectedCollection, report);
          }
        });
      } finally {
        await this.read.drop(
          shadow.pairs.map((p) => p.shadow),
          [shadow.checkpoint],
        );
      }
    }
    return report;
  }

  private projector(name: string): Projector {
    const projector = this.engine.projector(name);
    if (!projector) throw new UnknownProjectionError(name, this.engine.projectorNames());
    return projector;
  }

  private async prepareShadow(projector: Projector, suffix: string) {
    const pairs = projector.collections.map((c) => ({ live: c.name, shadow: `${c.name}${suffix}`, spec: c }));
    const checkpoint = `${projector.name}${suffix}`;
    await this.read.drop(
      pairs.map((p) => p.shadow),
      [checkpoint],
    );
    // Shadows are filled from history and then swapped in (or dropped): their indexes may wait.
    await this.read.init(
      pairs.map((p): CollectionSpec => ({ ...p.spec, name: p.shadow })),
      { bulkLoad: true },
    );
    return { pairs, checkpoint, rename: new Map(pairs.map((p) => [p.live, p.shadow])) };
  }

  /**
   * Replays events after `from` up to `until` (inclusive) into the shadow collections; stops
   * early once `stopAt()` is reached (the live checkpoint, for the catch-up phase).
   *
   * Batches are written while the next ones are read and projected: a store that writes off this
   * thread (the embedded one's worker) applies batch n while batch n + 1 is prepared. Up to
   * WRITES_IN_FLIGHT writes are outstanding, they land in order, and the replay returns only once
   * the last one has landed. A write that failed fails the replay (the shadow is never swapped
   * in; the next rebuild starts it afresh).
   */
  private async replay(
    projector: Projector,
    shadow: { rename: Map<string, string>; checkpoint: string },
    from: number,
    until: number,
    onBatch: (count: number, position: number) => void,
    stopAt?: () => number,
  ): Promise<number> {
    let position = from;
    const wants = eventFilter(projector);
    const inFlight: Promise<void>[] = [];
    try {
      for (;;) {
        if (stopAt && position >= stopAt()) break;
        let batch = await this.events.readAll({ after: position, maxCount: BATCH });
        if (batch.length > 0 && batch[batch.length - 1].position > until)
          batch = batch.filter((e) => e.position <= until);
        if (batch.length === 0) break;
        const ops: WriteOp[] = [];
        for (const event of batch) {
          if (!wants(event.type)) continue;
          for (const op of projector.project(event)) {
            op.collection = shadow.rename.get(op.collection) ?? op.collection;
            op.at = event.position;
            ops.push(op);
          }
        }
        position = batch[batch.length - 1].position;
        while (inFlight.length >= WRITES_IN_FLIGHT) await inFlight.shift();
        const at = position;
        // The count, not the batch: its events are garbage once projected, not kept until the write lands.
        const count = batch.length;
        const written = this.read.apply(coalesce(ops), { [shadow.checkpoint]: at }).then(() => onBatch(count, at));
        // Awaited in order below; handled now, so that a later write's failure is never reported
        // as unhandled while an earlier one is being awaited.
        written.catch(() => undefined);
        inFlight.push(written);
        if (position >= until) break;
        // Reading is synchronous and a finished write resolves in a microtask: without this turn
        // the loop would run batch after batch and hold the event loop (the API's requests) for
        // the whole rebuild.
        await setImmediate();
      }
      while (inFlight.length > 0) await inFlight.shift();
    } finally {
      // Never left running behind a failure: the caller may drop the shadow next.
      await Promise.allSettled(inFlight);
    }
    return position;
  }

  /** A merge join of two id-ordered scans. */
  private async compare(projection: string, liveName: string, expectedName: string, report: VerifyReport) {
    const live = this.read.scan(liveName)[Symbol.asyncIterator]();
    const expected = this.read.scan(expectedName)[Symbol.asyncIterator]();
    let a = await live.next();
    let e = await expected.next();
    const add = (difference: Difference) => {
      if (report.differences.length < MAX_DIFFERENCES) report.differences.push(difference);
      else report.truncated = true;
    };
    while (!a.done || !e.done) {
      report.documents += 1;
      if (e.done || (!a.done && a.value.id < e.value.id)) {
        add({ projection, collection: liveName, id: a.value!.id, kind: 'unexpected', actual: summary(a.value!) });
        a = await live.next();
      } else if (a.done || e.value.id < a.value.id) {
        add({ projection, collection: liveName, id: e.value.id, kind: 'missing', expected: summary(e.value) });
        e = await expected.next();
      } else {
        if (!isDeepStrictEqual(summary(a.value), summary(e.value))) {
          add({
            projection,
            collection: liveName,
            id: a.value.id,
            kind: 'different',
            expected: summary(e.value),
            actual: summary(a.value),
          });
        }
        a = await live.next();
        e = await expected.next();
      }
    }
  }
}

function summary(doc: StoredDocument) {
  return { workspaceId: doc.workspaceId, seq: doc.seq, version: doc.version, doc: doc.doc };
}

export class UnknownProjectionError extends Error {
  constructor(
    readonly projection: string,
    readonly known: string[],
  ) {
    super(`Unknown projection ${projection} (known: ${known.join(', ')})`);
  }
}
