import { notFound, validationError } from '@app/domain';
import { EventStore, EventStoreIdentity, StoredEventBytes } from '../ports/event-store.port';
import { LedgerSigner } from '../ports/ledger-signer.port';
import { LedgerConflictError, LedgerLeaf, LedgerState, LedgerStore, SignedHead } from '../ports/ledger-store.port';
import { redactSecrets } from '../history/history-entry';
import { decodeCursor, encodeCursor, PAGE_SIZE } from '../shared/pagination';
import {
  consistencyPath,
  eventLeafHash,
  Frontier,
  Hash,
  headSigningText,
  inclusionPath,
  leafHash,
  leafBytesOf,
  nodeHash,
  sha256,
  splitPoint,
} from './merkle';

/** Events hashed per transaction of the ledger. */
export const LEDGER_BATCH = 1000;
/** Leaf hashes read per query while a subtree hash is computed: what bounds a proof's memory. */
const HASH_READ_CHUNK = 16_384;
/**
 * Aligned perfect subtrees of at least this many leaves have their hash kept once computed: a
 * leaf never changes once appended, so they hold until a rebuild (which clears them), and there
 * are about 2n/CACHED_SUBTREE of them. Proofs after the first then read at most a few thousand
 * leaf hashes, whatever the size.
 */
const CACHED_SUBTREE = 1024;

export interface LedgerOptions {
  /** Whether this process builds the log (the projector) or only reads it (a replica). */
  role?: 'projector' | 'replica';
  /**
   * Wait between looks for new events while they come (ms; 100 by default). Only a full batch
   * is followed at once: under load the log appends a few larger batches a second, not one small
   * transaction per write (each costs the projector's event loop a commit). A head request
   * wakes it at once.
   */
  pollIntervalMs?: number;
  /** Longest wait between looks while nothing comes (ms; 500 by default). */
  maxIdlePollIntervalMs?: number;
  /** How long `POST heads` waits for the log to reach the store's head (ms). */
  catchUpTimeoutMs?: number;
  /** Every this many ms the projector signs a head, if the log grew since the last one; 0: never. */
  headIntervalMs?: number;
  clock?: () => number;
  logger?: { log(message: string): void; error(message: string, error?: unknown): void };
}

/** The log did not reach the store's head in time: a 503 for the caller. */
export class LedgerBehindError extends Error {
  constructor(
    readonly head: number,
    readonly checkpoint: number,
    waitedMs: number,
  ) {
    super(
      `The ledger did not catch up with the event store within ${waitedMs} ms (log at position ${checkpoint}, store at ${head}); retry later`,
    );
    this.name = 'LedgerBehindError';
  }
}

/** Only the projector builds the log and signs heads (the one writer of the ledger). */
export class LedgerProjectorOnlyError extends Error {
  constructor(readonly operation: string) {
    super(`${operation} runs only on the projector`);
    this.name = 'LedgerProjectorOnlyError';
  }
}

const named = (store: EventStoreIdentity) => `${store.kind} ${store.id}`;

/**
 * A log built from one event store, opened with another: its leaves are the other store's
 * events, its checkpoint a position there, and its proofs would not be about this store's history.
 */
export class LedgerSourceMismatchError extends Error {
  constructor(
    readonly builtFrom: EventStoreIdentity,
    readonly configured: EventStoreIdentity,
  ) {
    super(
      `the ledger was built from event store ${named(builtFrom)}, but this process's event store (EVENT_STORE) ` +
        `is ${named(configured)}: its leaves are the other store's events and its checkpoint a position there. ` +
        'Point EVENT_STORE (and EVENTSTOREDB_URL) back at the store it came from, or build it again from this one: ' +
        'stop the service, move DATA_DIR/ledger.db aside (on MongoDB, drop the ledger_leaves, ledger_state and ' +
        "ledger_source collections) and start the projector, which builds the log from this store's beginning. " +
        'Heads signed over the other store do not match the new log (docs/ledger.md, "What identifies the log")',
    );
    this.name = 'LedgerSourceMismatchError';
  }
}

export interface InclusionProof {
  leaf_index: number;
  position: number;
  event_id: string;
  leaf_hash: string;
  size: number;
  root: string;
  audit_path: string[];
}

export interface ConsistencyProof {
  first: number;
  second: number;
  first_root: string;
  second_root: string;
  proof: string[];
}

export interface LedgerVerification {
  size: number;
  checkpoint: number;
  root: string;
  /** True when every stored leaf equals the hash of the event as the store holds it now. */
  matches: boolean;
  /** Position of the first event whose leaf differs (or that is missing / extra), else null. */
  first_mismatch_position: number | null;
  /** Why the first mismatch is one. */
  detail: string | null;
}

/** One line of `events export --all` (docs/ledger.md, "Export"). */
export interface ExportedLeafLine {
  leaf_index: number;
  position: number;
  stream_id: string;
  revision: number;
  id: string;
  type: string;
  schema_version: number;
  /** SHA-256 of the data bytes as stored, hex (what the leaf commits to). */
  data_sha256: string;
  /**
   * Base64 of the data bytes as stored; absent when the data holds a credential-like field
   * (`secret`, `key_hash`, `password`, `token`): the digest alone then vouches for it.
   */
  stored_data?: string;
  /** Base64 of the metadata bytes as stored. */
  stored_metadata: string;
  /** The leaf hash the ledger recorded for this index when it appended it (hex), if it has. */
  ledger_leaf_hash: string | null;
}

export interface ExportHeader {
  ledger_export: 1;
  key_id: string;
  /** Base64 of the raw Ed25519 public key (32 bytes). */
  public_key: string;
  ledger_size: number;
}

const hex = (h: Hash) => h.toString('hex');

/**
 * The tamper-evident log over the event store's history (docs/ledger.md): an RFC 9162 Merkle tree
 * whose leaf i is the i-th event of $all as stored. On the projector it is built like a
 * projection: batches of events read after the stored checkpoint, hashed, and appended with the
 * new checkpoint and compact frontier in one write (resumable after a crash, rebuildable,
 * verifiable against a recomputation). Every process answers heads, proofs and exports from the
 * stored log.
 */
export class Ledger {
  readonly role: 'projector' | 'replica';
  private readonly pollIntervalMs: number;
  private readonly maxIdlePollIntervalMs: number;
  private readonly catchUpTimeoutMs: number;
  private readonly headIntervalMs: number;
  private readonly clock: () => number;
  private state: LedgerState | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private wake: (() => void) | null = null;
  private waiters: { position: number; resolve: () => void }[] = [];
  private headTimer: NodeJS.Timeout | null = null;
  /** Steps and rebuilds run one at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly events: EventStore,
    private readonly store: LedgerStore,
    private readonly signer: LedgerSigner,
    private readonly options: LedgerOptions = {},
  ) {
    this.role = options.role ?? 'projector';
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.maxIdlePollIntervalMs = Math.max(this.pollIntervalMs, options.maxIdlePollIntervalMs ?? 500);
    this.catchUpTimeoutMs = options.catchUpTimeoutMs ?? 10_000;
    this.headIntervalMs = options.headIntervalMs ?? 3_600_000;
    this.clock = options.clock ?? Date.now;
  }

  /**
   * Checks, before the log is built or served, that it was built from this process's event store
   * (its `identity()`, recorded in the ledger store). A log stamped with another store and holding
   * leaves is refused (LedgerSourceMismatchError); the projector stamps a log with no stamp (a
   * fresh one, or one of a release that kept none, taken to be of the store it runs on) and an
   * empty one stamped with another store.
   */
  async checkSource(): Promise<void> {
    const [configured, stamped] = await Promise.all([this.events.identity(), this.store.source()]);
    if (stamped && stamped.kind === configured.kind && stamped.id === configured.id) return;
    if (stamped && (await this.store.state()).size > 0) throw new LedgerSourceMismatchError(stamped, configured);
    if (this.role === 'projector') await this.store.stampSource(configured);
  }

  /** Starts building (projector only): the loop, and the periodic heads. */
  start(): void {
    if (this.role !== 'projector' || !this.stopped) return;
    this.stopped = false;
    this.running = this.loop();
    if (this.headIntervalMs > 0) {
      this.headTimer = setInterval(() => void this.periodicHead(), this.headIntervalMs);
      this.headTimer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.headTimer) clearInterval(this.headTimer);
    this.headTimer = null;
    this.wake?.();
    await this.running;
    this.running = null;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Hashes and appends the next batch of events; the number appended. */
  step(): Promise<number> {
    return this.serial(() => this.stepOnce());
  }

  private async stepOnce(): Promise<number> {
    if (this.store.buildNext) {
      const built = await this.store.buildNext(LEDGER_BATCH);
      this.state = built.state;
      if (built.appended > 0) this.settleWaiters();
      return built.appended;
    }
    const state = (this.state ??= await this.store.state());
    const batch = await this.events.readAllStored({ after: state.checkpoint, maxCount: LEDGER_BATCH });
    if (batch.length === 0) return 0;
    const frontier = Frontier.of(state.size, state.frontier);
    const leaves: LedgerLeaf[] = batch.map((event, i) => {
      const hash = eventLeafHash(event);
      frontier.append(hash);
      return { index: state.size + i, position: event.position, eventId: event.id, hash };
    });
    const next: LedgerState = {
      size: frontier.size,
      checkpoint: batch[batch.length - 1].position,
      frontier: frontier.subtrees,
    };
    try {
      await this.store.append(leaves, next);
    } catch (error) {
      this.state = null; // read again: another writer, or a clear
      throw error;
    }
    this.state = next;
    this.settleWaiters();
    return batch.length;
  }

  private async loop(): Promise<void> {
    let wait = this.pollIntervalMs;
    while (!this.stopped) {
      let appended = 0;
      try {
        appended = await this.step();
      } catch (error) {
        if (!(error instanceof LedgerConflictError)) this.options.logger?.error('Ledger append failed', error);
        wait = this.maxIdlePollIntervalMs;
      }
      if (appended === LEDGER_BATCH) continue;
      if (appended > 0) wait = this.pollIntervalMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => done(), wait);
        const done = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
        this.wake = done;
      });
      if (appended === 0) wait = Math.min(wait * 2, this.maxIdlePollIntervalMs);
    }
  }

  private settleWaiters(): void {
    const checkpoint = this.state?.checkpoint ?? 0;
    const reached = this.waiters.filter((w) => w.position <= checkpoint);
    this.waiters = this.waiters.filter((w) => w.position > checkpoint);
    for (const w of reached) w.resolve();
  }

  /** Resolves once the log holds every event up to `position`; false after the timeout. */
  private async reach(position: number, timeoutMs: number): Promise<boolean> {
    if (((this.state ??= await this.store.state()).checkpoint ?? 0) >= position) return true;
    this.wake?.();
    return new Promise<boolean>((resolve) => {
      const waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /**
   * Signs a head covering at least every event written before the call: waits for the log to
   * reach the store's head position as read now (LedgerBehindError after the timeout).
   */
  async signHead(): Promise<SignedHead> {
    if (this.role !== 'projector') throw new LedgerProjectorOnlyError('Signing a ledger head');
    const head = await this.events.headPosition();
    if (!(await this.reach(head, this.catchUpTimeoutMs))) {
      throw new LedgerBehindError(head, this.state?.checkpoint ?? 0, this.catchUpTimeoutMs);
    }
    return this.signState(await this.store.state());
  }

  private async signState(state: LedgerState): Promise<SignedHead> {
    const root = hex(Frontier.of(state.size, state.frontier).root());
    const unsigned = { size: state.size, root, signed_at: new Date(this.clock()).toISOString() };
    const signature = this.signer.sign(Buffer.from(headSigningText(unsigned), 'utf8')).toString('base64');
    const head: SignedHead = { ...unsigned, key_id: this.signer.keyId, signature };
    await this.store.addHead(head);
    return head;
  }

  /** The periodic head: signed when the log grew since the newest head kept. */
  private async periodicHead(): Promise<void> {
    try {
      const state = await this.store.state();
      const [newest] = await this.store.listHeads({ limit: 1 });
      if (newest && newest.head.size === state.size) return;
      await this.signState(state);
    } catch (error) {
      this.options.logger?.error('Periodic ledger head failed', error);
    }
  }

  async listHeads(cursor?: string): Promise<{ heads: SignedHead[]; count: number; cursor: string | null }> {
    const before = decodeCursor(cursor);
    const found = await this.store.listHeads({ before, limit: PAGE_SIZE + 1 });
    const page = found.slice(0, PAGE_SIZE);
    return {
      heads: page.map((h) => h.head),
      count: await this.store.countHeads(),
      cursor: found.length > PAGE_SIZE ? encodeCursor(page[page.length - 1].seq) : null,
    };
  }

  publicKey(): { key_id: string; public_key: string } {
    return { key_id: this.signer.keyId, public_key: this.signer.publicKey.toString('base64') };
  }

  /** Hashes of aligned perfect subtrees, by `start:size` (the projector's only: it alone rebuilds). */
  private readonly perfect = new Map<string, Hash>();

  /** MTH of leaves [start, end), split as RFC 9162 splits it, perfect subtrees from the cache. */
  private readonly subtree = async (start: number, end: number): Promise<Hash> => {
    const n = end - start;
    if (n <= CACHED_SUBTREE || this.role !== 'projector') return this.hashRange(start, end);
    const aligned = Number.isInteger(Math.log2(n)) && start % n === 0;
    const key = `${start}:${n}`;
    const known = aligned ? this.perfect.get(key) : undefined;
    if (known) return known;
    const k = splitPoint(n);
    const hash = nodeHash(await this.subtree(start, start + k), await this.subtree(start + k, end));
    if (aligned) this.perfect.set(key, hash);
    return hash;
  };

  /** MTH of leaves [start, end), read in chunks: memory bounded by the chunk, whatever the range. */
  private readonly hashRange = async (start: number, end: number): Promise<Hash> => {
    const frontier = Frontier.empty();
    for (let from = start; from < end; from += HASH_READ_CHUNK) {
      const hashes = await this.store.leafHashes(from, Math.min(end, from + HASH_READ_CHUNK));
      if (hashes.length !== Math.min(end, from + HASH_READ_CHUNK) - from)
        throw new Error(`The ledger is missing leaves in [${from}, ${end})`);
      for (const h of hashes) frontier.append(h);
    }
    return frontier.root();
  };

  private async rootAt(size: number, state: LedgerState): Promise<Hash> {
    if (size === state.size) return Frontier.of(state.size, state.frontier).root();
    return this.subtree(0, size);
  }

  private async sizeOf(raw: number | undefined, state: LedgerState, field: string, min: number): Promise<number> {
    const size = raw ?? state.size;
    if (size < min || size > state.size)
      throw validationError(`${field} must be between ${min} and the log's size (${state.size})`);
    return size;
  }

  /** RFC 9162 inclusion proof of the event (by position or id) in the tree of `size` leaves. */
  async inclusion(by: { position?: number; eventId?: string }, size?: number): Promise<InclusionProof> {
    const leaf =
      by.position !== undefined
        ? await this.store.leafAtPosition(by.position)
        : await this.store.leafOfEvent(by.eventId!);
    if (!leaf) {
      throw notFound(
        by.position !== undefined
          ? `No event at position ${by.position} in the ledger`
          : `No event ${by.eventId} in the ledger`,
      );
    }
    const state = await this.store.state();
    const n = await this.sizeOf(size, state, 'size', leaf.index + 1);
    const path = await inclusionPath(leaf.index, n, this.subtree);
    return {
      leaf_index: leaf.index,
      position: leaf.position,
      event_id: leaf.eventId,
      leaf_hash: hex(leaf.hash),
      size: n,
      root: hex(await this.rootAt(n, state)),
      audit_path: path.map(hex),
    };
  }

  /** RFC 9162 consistency proof between the trees of `first` and `second` leaves. */
  async consistency(first: number, second?: number): Promise<ConsistencyProof> {
    const state = await this.store.state();
    const n = await this.sizeOf(second, state, 'second', 1);
    if (first < 1 || first > n) throw validationError(`first must be between 1 and second (${n})`);
    return {
      first,
      second: n,
      first_root: hex(await this.rootAt(first, state)),
      second_root: hex(await this.rootAt(n, state)),
      proof: (await consistencyPath(first, n, this.subtree)).map(hex),
    };
  }

  /** Recomputes every leaf from the events as stored now and compares with the log (bounded memory). */
  async verify(): Promise<LedgerVerification> {
    const state = await this.store.state();
    const frontier = Frontier.empty();
    let after = 0;
    let index = 0;
    let mismatch: { position: number; detail: string } | null = null;
    while (index < state.size && !mismatch) {
      const batch = await this.events.readAllStored({ after, maxCount: LEDGER_BATCH });
      const stored = await this.store.leafHashes(index, Math.min(state.size, index + batch.length));
      for (let i = 0; i < batch.length && index < state.size; i++, index++) {
        const hash = eventLeafHash(batch[i]);
        frontier.append(hash);
        if (!hash.equals(stored[i])) {
          mismatch = { position: batch[i].position, detail: `leaf ${index} differs from the event as stored` };
          break;
        }
        after = batch[i].position;
      }
      if (batch.length === 0 && index < state.size) {
        mismatch = { position: after, detail: `the store holds ${index} events of the ${state.size} in the log` };
      }
    }
    const root = Frontier.of(state.size, state.frontier).root();
    if (!mismatch && !frontier.root().equals(root)) {
      mismatch = { position: state.checkpoint, detail: "the stored frontier does not give the leaves' root" };
    }
    return {
      size: state.size,
      checkpoint: state.checkpoint,
      root: hex(root),
      matches: mismatch === null,
      first_mismatch_position: mismatch?.position ?? null,
      detail: mismatch?.detail ?? null,
    };
  }

  /**
   * Drops the log and builds it again from the store as it is (projector only). The heads kept
   * stay: a rebuilt log over a changed history no longer matches them, which is how it shows.
   */
  async rebuild(): Promise<{ size: number }> {
    if (this.role !== 'projector') throw new LedgerProjectorOnlyError('A ledger rebuild');
    return this.serial(async () => {
      await this.store.clearLeaves();
      await this.store.stampSource(await this.events.identity());
      this.perfect.clear();
      this.state = null;
      while ((await this.stepOnce()) > 0);
      return { size: (await this.store.state()).size };
    });
  }

  /** The NDJSON lines of `events export --all`: a header, then every event with its leaf data. */
  async *exportAll(): AsyncGenerator<ExportHeader | ExportedLeafLine> {
    const state = await this.store.state();
    yield { ledger_export: 1, ...this.publicKey(), ledger_size: state.size };
    let after = 0;
    let index = 0;
    for (;;) {
      const batch = await this.events.readAllStored({ after, maxCount: LEDGER_BATCH });
      if (batch.length === 0) return;
      const recorded =
        index < state.size ? await this.store.leafHashes(index, Math.min(state.size, index + batch.length)) : [];
      for (let i = 0; i < batch.length; i++, index++) yield exportLine(batch[i], index, recorded[i]);
      after = batch[batch.length - 1].position;
    }
  }
}

function exportLine(event: StoredEventBytes, index: number, recorded: Hash | undefined): ExportedLeafLine {
  const data = Buffer.from(event.data);
  const text = data.toString('utf8');
  let clean: boolean;
  try {
    clean = JSON.stringify(redactSecrets(JSON.parse(text))) === text;
  } catch {
    clean = true; // not JSON: no field of it can be named like a credential
  }
  return {
    leaf_index: index,
    position: event.position,
    stream_id: event.streamId,
    revision: event.revision,
    id: event.id,
    type: event.type,
    schema_version: event.schemaVersion,
    data_sha256: sha256(data).toString('hex'),
    ...(clean ? { stored_data: data.toString('base64') } : {}),
    stored_metadata: Buffer.from(event.metadata).toString('base64'),
    ledger_leaf_hash: recorded ? hex(recorded) : null,
  };
}

/**
 * The leaf hash of an export line, recomputed from its fields (what `audit verify` does); null
 * when its stored data does not hash to the digest it gives.
 */
export function exportedLeafHash(line: ExportedLeafLine): Hash | null {
  if (
    line.stored_data !== undefined &&
    sha256(Buffer.from(line.stored_data, 'base64')).toString('hex') !== line.data_sha256
  )
    return null;
  return leafHash(
    leafBytesOf(
      {
        position: line.position,
        streamId: line.stream_id,
        revision: line.revision,
        id: line.id,
        type: line.type,
        schemaVersion: line.schema_version,
        metadata: Buffer.from(line.stored_metadata, 'base64'),
      },
      Buffer.from(line.data_sha256, 'hex'),
    ),
  );
}
