import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Collection, MongoServerError } from 'mongodb';
import { HeldProjectorLock, ProjectorLock, ProjectorLockHeldError, ProjectorLockOptions } from '@app/application/ports';
import { MongoConnection } from './mongodb-connection';

interface LeaseDoc {
  _id: string;
  owner: string | null;
  /** The server's clock: every process compares it with the server's `$$NOW`, never with its own. */
  lease_until: Date;
}

export interface MongoProjectorLeaseOptions {
  /** How long a lease lasts unless renewed (ms). */
  leaseMs?: number;
  /** How often the holder renews it (ms; default a third of `leaseMs`). */
  renewEveryMs?: number;
  /** How often a projector waiting for the lease tries again (ms). */
  retryMs?: number;
  /** This holder's id, shown to the next projector that finds the lease held. */
  owner?: string;
}

const LEASE = 'projector';
/** Shorter than the projector's wait at start (adapters.ts), so a crashed holder's lease runs out within it. */
export const PROJECTOR_LEASE_MS = 10_000;

/**
 * The MongoDB read models' projector lock: a lease in `projector_lease` (one document: owner and
 * expiry), as the webhook fan-out has one. Taking it is one conditional upsert that matches a
 * lease held by this owner or run out, and otherwise collides on `_id` (not mine). The holder
 * renews it every third of its length; a renewal that finds another owner, or renewals that fail
 * until the lease may have run out, report it lost (`onLost`). Expiry is on the server's clock
 * (`$$NOW`), so clocks that disagree between hosts cannot give it to two holders.
 *
 * A lease does not fence a holder that has not yet seen it lost: the read-model store guards its
 * writes by position and its checkpoints never move back, so such a holder's late batch cannot
 * undo the next holder's writes (MongoReadModelStore).
 */
export class MongoProjectorLease implements ProjectorLock {
  private readonly leases: Collection<LeaseDoc>;
  private readonly leaseMs: number;
  private readonly retryMs: number;
  private readonly renewEveryMs: number;
  private readonly owner: string;

  /** The lease closes the connection (its handle) when it is released. */
  constructor(
    private readonly connection: MongoConnection,
    options: MongoProjectorLeaseOptions = {},
  ) {
    this.leases = connection.db().collection<LeaseDoc>('projector_lease');
    this.leaseMs = options.leaseMs ?? PROJECTOR_LEASE_MS;
    this.retryMs = options.retryMs ?? Math.max(10, Math.floor(this.leaseMs / 20));
    this.renewEveryMs = options.renewEveryMs ?? Math.max(10, Math.floor(this.leaseMs / 3));
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  }

  get description(): string {
    return `the projector lease of MongoDB database ${this.connection.databaseName}`;
  }

  async acquire(options: ProjectorLockOptions): Promise<HeldProjectorLock> {
    const deadline = Date.now() + options.waitMs;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      if (await this.take()) return this.hold(started, options.onLost);
      if (Date.now() >= deadline) throw new ProjectorLockHeldError(await this.holder());
      if (attempt === 0) options.onWait?.();
      await sleep(this.retryMs);
    }
  }

  /** Takes or renews the lease for this owner; false while another owner's lease runs. */
  private async take(): Promise<boolean> {
    try {
      await this.leases.updateOne(
        { _id: LEASE, $or: [{ owner: this.owner }, { $expr: { $lte: ['$lease_until', '$$NOW'] } }] },
        [{ $set: { owner: { $literal: this.owner }, lease_until: { $add: ['$$NOW', this.leaseMs] } } }],
        { upsert: true },
      );
      return true;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 11000) return false;
      throw error;
    }
  }

  private async holder(): Promise<string> {
    const doc = await this.leases.findOne({ _id: LEASE }).catch(() => null);
    const by = doc?.owner ? ` (held by ${doc.owner} until ${doc.lease_until.toISOString()})` : '';
    return `${this.description}${by}`;
  }

  /**
   * Renews the lease while held (by default every third of its length). `validUntil` is on this process's
   * monotonic clock, from the start of the last renewal that succeeded: the server's expiry is
   * later than that.
   */
  private hold(takenAt: number, onLost: ProjectorLockOptions['onLost']): HeldProjectorLock {
    let validUntil = takenAt + this.leaseMs;
    let released = false;
    let renewing: Promise<void> = Promise.resolve();
    const every = this.renewEveryMs;
    const lose = (reason: string) => {
      if (released) return;
      released = true;
      clearInterval(timer);
      void this.connection.close().catch(() => undefined);
      onLost?.(reason);
    };
    const renew = async () => {
      const started = performance.now();
      try {
        const renewed = await this.leases.updateOne({ _id: LEASE, owner: this.owner }, [
          { $set: { lease_until: { $add: ['$$NOW', this.leaseMs] } } },
        ]);
        if (released) return;
        if (renewed.matchedCount === 0) return lose(`${await this.holder()}: taken over`);
        validUntil = started + this.leaseMs;
      } catch (error) {
        // Another try comes at the next tick, unless the lease may have run out before it.
        if (!released && performance.now() + every >= validUntil) {
          lose(`${this.description} could not be renewed in time: ${(error as Error)?.message ?? error}`);
        }
      }
    };
    const timer = setInterval(() => {
      renewing = renewing.then(renew);
    }, every);
    timer.unref();
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(timer);
        await renewing;
        try {
          await this.leases.updateOne(
            { _id: LEASE, owner: this.owner },
            { $set: { owner: null, lease_until: new Date(0) } },
          );
        } finally {
          await this.connection.close();
        }
      },
    };
  }
}
