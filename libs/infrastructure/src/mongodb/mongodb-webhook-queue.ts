import { randomBytes } from 'node:crypto';
import { AnyBulkWriteOperation, ClientSession, Collection, Filter, MongoServerError } from 'mongodb';
import {
  ClaimedDelivery,
  DeliveryAttempt,
  FanoutBatch,
  FanoutLeaseLostError,
  RequeueOutcome,
  SettleRequest,
  SettleResult,
  AttemptCount,
  DeliveryBacklog,
  TroubledSubscription,
  StoredAttempt,
  TelemetryChange,
  WebhookQueue,
  WebhookRoute,
  WebhookTelemetry,
} from '@app/application/ports';
import { TelemetryDelta, telemetryDeltas } from '../webhooks/telemetry-deltas';
import {
  AttemptRecord,
  BatchSettlingQueue,
  claimedDelivery,
  DeliveryRecord,
  storedAttempt,
} from '../webhooks/stored-webhook-queue';
import { MongoConnection } from './mongodb-connection';
import { inTransaction } from './transactions';

interface FanoutDoc {
  _id: string;
  position: number;
  owner: string | null;
  lease_until: number;
}

interface RouteDoc {
  _id: string;
  workspace_id: string;
  event_types: string[];
  active: boolean;
}

interface DeliveryDoc extends DeliveryRecord {
  _id: string;
  status: 'pending' | 'succeeded' | 'failed';
  lease_owner: string | null;
  claim_token: string | null;
  last_error: string | null;
  settled_at: number | null;
}

interface AttemptDoc extends AttemptRecord<boolean> {
  /** `<webhook id>:<seq>`; a number (the seq) on attempts stored when one counter served every subscription. */
  _id: string | number;
  /** The list order within the subscription (StoredAttempt.seq). */
  seq: number;
}

/** One document per subscription, rewritten in place; fields are absent until first set. */
interface TelemetryDoc {
  _id: string;
  failure_count?: number;
  /** The count the last settle batch started from (returned to the worker). */
  batch_base?: number;
  last_attempt_at?: number;
  last_triggered_at?: number;
  last_response_status?: number | null;
  attempts?: number;
  failures?: number;
  reset_generation?: number;
}

/** A subscription's attempt counter (`attempts:<webhook id>`), or the one counter of older releases (`attempts`). */
interface CounterDoc {
  _id: string;
  seq: number;
}

/** The counter every subscription shared in older releases; read only, to number new attempts after its own. */
const LEGACY_ATTEMPT_COUNTER = 'attempts';
const attemptCounterOf = (webhookId: string) => `attempts:${webhookId}`;

const FANOUT = 'fanout';

/**
 * The webhook queue of the scaled deployment, in MongoDB: every API/worker process shares it.
 *
 * - Fan-out: one document holds the checkpoint and the lease. Taking the lease is one conditional
 *   upsert (held by me, or expired); a live lease of another owner makes the upsert collide on
 *   `_id` and fail, which reads as "not mine". A batch is committed in a transaction on a replica
 *   set; without one, deliveries are upserted by their deterministic id first and the checkpoint
 *   is moved last, guarded by the owner, so a replay or a deposed leader adds nothing twice.
 * - Claims: a batch at a time, in three round trips: the due candidates, one `updateMany` that
 *   leases those still due (each document's update is atomic and re-checks the filter, so
 *   concurrent workers in any number of processes never get the same delivery), then the
 *   documents that carry this claim's token. The claim moves `next_attempt_at` to the end of the
 *   lease, which makes an abandoned claim due again by itself.
 * - Settling is guarded by the claim token; the settlements of a batch share one transaction.
 *   That transaction writes only documents of the batch's own deliveries and subscriptions (their
 *   telemetry and attempt counter): settles of other subscriptions, in any process, never touch
 *   the same document, so they do not conflict.
 */
export class MongoWebhookQueue extends BatchSettlingQueue implements WebhookQueue {
  private readonly fanout: Collection<FanoutDoc>;
  private readonly routes: Collection<RouteDoc>;
  private readonly deliveries: Collection<DeliveryDoc>;
  private readonly attempts: Collection<AttemptDoc>;
  private readonly counters: Collection<CounterDoc>;
  private readonly telemetry: Collection<TelemetryDoc>;
  /** Where new subscription counters start: above every attempt numbered by the legacy counter. */
  private attemptBase: Promise<number> | null = null;

  /** In the connection's database; the queue closes the connection (its handle) with itself. */
  constructor(
    private readonly connection: MongoConnection,
    private readonly transactions: boolean,
  ) {
    super();
    const db = connection.db();
    this.fanout = db.collection<FanoutDoc>('webhook_fanout');
    this.routes = db.collection<RouteDoc>('webhook_routes');
    this.deliveries = db.collection<DeliveryDoc>('webhook_deliveries');
    this.attempts = db.collection<AttemptDoc>('webhook_attempts');
    this.counters = db.collection<CounterDoc>('webhook_counters');
    this.telemetry = db.collection<TelemetryDoc>('webhook_telemetry');
  }

  static async connect(connection: MongoConnection): Promise<MongoWebhookQueue> {
    try {
      return new MongoWebhookQueue(connection, await connection.transactions());
    } catch (error) {
      await connection.close().catch(() => undefined);
      throw error;
    }
  }

  async init(): Promise<void> {
    await this.deliveries.createIndex({ status: 1, next_attempt_at: 1 }, { name: 'due' });
    await this.deliveries.createIndex({ webhook_id: 1, status: 1, created_at: 1 }, { name: 'by_webhook' });
    await this.deliveries.createIndex({ status: 1, settled_at: 1 }, { name: 'settled' });
    // Only the deliveries claimed right now (a settlement or a release clears the owner).
    await this.deliveries.createIndex(
      { lease_owner: 1 },
      { name: 'claimed', partialFilterExpression: { lease_owner: { $type: 'string' } } },
    );
    // Attempts numbered by the legacy counter get their seq field (their _id) before the index
    // that lists by it. An older process of a rolling deploy may still add such attempts: the
    // next start numbers them too.
    if ((await this.legacyAttemptBase()) > 0) {
      await this.attempts.updateMany({ seq: { $exists: false } }, [{ $set: { seq: '$_id' } }]);
    }
    await this.attempts.createIndex({ webhook_id: 1, seq: -1 }, { name: 'by_webhook_seq' });
    await this.attempts.dropIndex('by_webhook').catch((error: { codeName?: string }) => {
      if (error?.codeName !== 'IndexNotFound') throw error;
    });
    await this.attempts.createIndex({ attempted_at: 1 }, { name: 'by_time' });
  }

  async acquireFanout(owner: string, now: number, leaseMs: number): Promise<{ checkpoint: number } | null> {
    try {
      const doc = await this.fanout.findOneAndUpdate(
        { _id: FANOUT, $or: [{ owner }, { lease_until: { $lte: now } }] },
        { $set: { owner, lease_until: now + leaseMs }, $setOnInsert: { position: 0 } },
        { upsert: true, returnDocument: 'after' },
      );
      return doc ? { checkpoint: doc.position } : null;
    } catch (error) {
      if (isDuplicateKey(error)) return null; // held by another owner whose lease still runs
      throw error;
    }
  }

  async releaseFanout(owner: string): Promise<void> {
    await this.fanout.updateOne({ _id: FANOUT, owner }, { $set: { lease_until: 0 } });
  }

  async fanoutHolder(): Promise<{ owner: string; leaseUntil: number } | null> {
    const doc = await this.fanout.findOne({ _id: FANOUT });
    return doc?.owner ? { owner: doc.owner, leaseUntil: doc.lease_until } : null;
  }

  async loadRoutes(): Promise<WebhookRoute[]> {
    const docs = await this.routes.find({}).toArray();
    return docs.map((doc) => ({
      webhookId: doc._id,
      workspaceId: doc.workspace_id,
      eventTypes: doc.event_types,
      active: doc.active,
    }));
  }

  async commitFanout(owner: string, batch: FanoutBatch): Promise<void> {
    await inTransaction(this.connection.client, this.transactions, async (session) => {
      if (this.transactions) {
        const current = await this.fanout.findOne({ _id: FANOUT }, { session });
        if (current?.owner !== owner) throw new FanoutLeaseLostError(owner);
      }
      const routeOps: AnyBulkWriteOperation<RouteDoc>[] = batch.upsertRoutes.map((route) => ({
        replaceOne: {
          filter: { _id: route.webhookId },
          replacement: { workspace_id: route.workspaceId, event_types: route.eventTypes, active: route.active },
          upsert: true,
        },
      }));
      if (routeOps.length > 0) await this.routes.bulkWrite(routeOps, { ordered: true, session });
      if (batch.removeRoutes.length > 0) {
        const ids = batch.removeRoutes.map(String);
        await this.routes.deleteMany({ _id: { $in: ids } }, { session });
        await this.deliveries.deleteMany({ webhook_id: { $in: ids } }, { session });
        await this.attempts.deleteMany({ webhook_id: { $in: ids } }, { session });
        await this.counters.deleteMany({ _id: { $in: ids.map(attemptCounterOf) } }, { session });
        await this.telemetry.deleteMany({ _id: { $in: ids } }, { session });
      }
      for (const reset of batch.resetFailures ?? []) await this.applyReset(reset.webhookId, reset.generation, session);
      if (batch.deliveries.length > 0) {
        // Upsert-if-absent: a delivery already queued (a replayed batch) is left as it is.
        await this.deliveries.bulkWrite(
          batch.deliveries.map((d) => ({
            updateOne: {
              filter: { _id: d.id },
              update: {
                $setOnInsert: {
                  webhook_id: d.webhookId,
                  workspace_id: d.workspaceId,
                  event_id: d.eventId,
                  event_type: d.eventType,
                  payload: d.payload,
                  created_at: d.createdAt,
                  status: 'pending',
                  attempts: 0,
                  round_start: 0,
                  next_attempt_at: d.nextAttemptAt,
                  lease_owner: null,
                  claim_token: null,
                  last_error: null,
                  settled_at: null,
                },
              },
              upsert: true,
            },
          })),
          { ordered: false, session },
        );
      }
      const moved = await this.fanout.updateOne(
        { _id: FANOUT, owner },
        { $max: { position: batch.checkpoint } },
        { session },
      );
      if (moved.matchedCount === 0) throw new FanoutLeaseLostError(owner);
    });
  }

  async claimDue(owner: string, now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const claimed: ClaimedDelivery[] = [];
    const token = randomBytes(9).toString('base64url');
    const leaseUntil = now + leaseMs;
    while (claimed.length < limit) {
      const candidates = await this.deliveries
        .find(
          { status: 'pending', next_attempt_at: { $lte: now }, _id: { $nin: claimed.map((c) => c.id) } },
          { sort: { next_attempt_at: 1 }, limit: Math.floor(limit - claimed.length), projection: { _id: 1 } },
        )
        .toArray();
      if (candidates.length === 0) break;
      const ids = candidates.map((c) => c._id);
      // Candidates another worker leased meanwhile no longer match: they are left to it.
      await this.deliveries.updateMany(
        { _id: { $in: ids }, status: 'pending', next_attempt_at: { $lte: now } },
        { $set: { next_attempt_at: leaseUntil, lease_owner: owner, claim_token: token } },
      );
      const docs = await this.deliveries.find({ _id: { $in: ids }, claim_token: token }).toArray();
      const order = new Map(ids.map((id, i) => [id, i]));
      docs.sort((a, b) => order.get(a._id)! - order.get(b._id)!);
      for (const doc of docs) claimed.push(claimedDelivery(doc._id, doc, token));
    }
    return claimed;
  }

  async settleMany(requests: readonly SettleRequest[]): Promise<SettleResult> {
    if (requests.length === 0) return { settled: [], telemetry: [] };
    let settled: boolean[] = [];
    let telemetry: TelemetryChange[] = [];
    await inTransaction(this.connection.client, this.transactions, async (session) => {
      settled = []; // withTransaction may run this again
      telemetry = [];
      const attempts: DeliveryAttempt[] = [];
      const attempted: { attempt: DeliveryAttempt; resetGeneration?: number }[] = [];
      for (const { claim, attempt, settlement } of requests) {
        const result = await this.deliveries.updateOne(
          { _id: claim.id, claim_token: claim.claimToken },
          {
            $set: {
              status: settlement.status === 'retry' ? 'pending' : settlement.status,
              next_attempt_at: settlement.status === 'retry' ? settlement.nextAttemptAt : 0,
              lease_owner: null,
              claim_token: null,
              last_error: settlement.status === 'failed' ? settlement.reason : (attempt?.error ?? null),
              settled_at: settlement.status === 'retry' ? null : (attempt?.attemptedAt ?? Date.now()),
            },
            $inc: { attempts: attempt ? 1 : 0 },
          },
          { session },
        );
        const ok = result.matchedCount === 1;
        settled.push(ok);
        if (ok && attempt) {
          attempts.push(attempt);
          attempted.push({ attempt, resetGeneration: requests[settled.length - 1].resetGeneration });
        }
      }
      if (attempts.length > 0) await this.insertAttempts(attempts, session);
      for (const delta of telemetryDeltas(attempted)) telemetry.push(await this.applyDelta(delta, session));
    });
    return { settled, telemetry };
  }

  /**
   * One pipeline update per subscription of the batch: each stage reads the document as the
   * previous one left it, and within a stage every expression reads it as it was, so the reset
   * (a newer generation) is applied first, then the batch's attempts in order.
   */
  private async applyDelta(delta: TelemetryDelta, session?: ClientSession): Promise<TelemetryChange> {
    const base = {
      $cond: [
        { $lt: [{ $ifNull: ['$reset_generation', -1] }, delta.resetGeneration] },
        0,
        { $ifNull: ['$failure_count', 0] },
      ],
    };
    const doc = await this.telemetry.findOneAndUpdate(
      { _id: delta.webhookId },
      [
        { $set: { batch_base: base } },
        {
          $set: {
            failure_count: delta.anySuccess
              ? { $literal: delta.trailingFailures }
              : { $add: ['$batch_base', delta.failures] },
            last_response_status: {
              $cond: [
                { $gte: [delta.lastAttemptedAt, { $ifNull: ['$last_attempt_at', -1] }] },
                { $literal: delta.lastResponseStatus },
                '$last_response_status',
              ],
            },
            last_attempt_at: { $max: ['$last_attempt_at', delta.lastAttemptedAt] },
            last_triggered_at: { $max: ['$last_triggered_at', delta.lastAttemptedAt] },
            attempts: { $add: [{ $ifNull: ['$attempts', 0] }, delta.attempts] },
            failures: { $add: [{ $ifNull: ['$failures', 0] }, delta.failures] },
            reset_generation: { $max: [{ $ifNull: ['$reset_generation', 0] }, delta.resetGeneration] },
          },
        },
      ],
      { upsert: true, returnDocument: 'after', session },
    );
    return {
      webhookId: delta.webhookId,
      failureCountBefore: doc?.batch_base ?? 0,
      failureCount: doc?.failure_count ?? 0,
    };
  }

  /** Reset generation `generation`: the count becomes 0 only if an older generation was applied. */
  private async applyReset(webhookId: string, generation: number, session?: ClientSession): Promise<void> {
    const newer = { $lt: [{ $ifNull: ['$reset_generation', -1] }, generation] };
    await this.telemetry.updateOne(
      { _id: webhookId },
      [
        {
          $set: {
            failure_count: { $cond: [newer, 0, { $ifNull: ['$failure_count', 0] }] },
            reset_generation: { $max: [{ $ifNull: ['$reset_generation', 0] }, generation] },
          },
        },
      ],
      { upsert: true, session },
    );
  }

  async release(claim: { id: string; claimToken: string }): Promise<void> {
    await this.deliveries.updateOne(
      { _id: claim.id, claim_token: claim.claimToken },
      { $set: { next_attempt_at: Date.now(), lease_owner: null, claim_token: null } },
    );
  }

  async claimOwners(now: number): Promise<string[]> {
    const owners = await this.deliveries.distinct('lease_owner', {
      lease_owner: { $type: 'string' },
      status: 'pending',
      next_attempt_at: { $gt: now },
    });
    return owners.filter((owner): owner is string => typeof owner === 'string');
  }

  async releaseClaimsOf(owner: string, now: number): Promise<number> {
    const result = await this.deliveries.updateMany(
      { lease_owner: owner, status: 'pending' },
      { $set: { next_attempt_at: now, lease_owner: null, claim_token: null } },
    );
    return result.modifiedCount;
  }

  async nextDueAt(): Promise<number | null> {
    const doc = await this.deliveries.findOne(
      { status: 'pending' },
      { sort: { next_attempt_at: 1 }, projection: { next_attempt_at: 1 } },
    );
    return doc ? doc.next_attempt_at : null;
  }

  async recordAttempt(attempt: DeliveryAttempt): Promise<void> {
    await inTransaction(this.connection.client, this.transactions, async (session) => {
      await this.insertAttempts([attempt], session);
      await this.telemetry.updateOne(
        { _id: attempt.webhookId },
        { $max: { last_triggered_at: attempt.attemptedAt } },
        { upsert: true, session },
      );
    });
  }

  async resetFailures(webhookId: string, generation: number): Promise<void> {
    await this.applyReset(webhookId, generation);
  }

  async loadTelemetry(webhookIds: readonly string[]): Promise<WebhookTelemetry[]> {
    if (webhookIds.length === 0) return [];
    const docs = await this.telemetry.find({ _id: { $in: webhookIds.map(String) } }).toArray();
    return docs.map((doc) => ({
      webhookId: doc._id,
      failureCount: doc.failure_count ?? 0,
      lastAttemptAt: doc.last_attempt_at ?? null,
      lastTriggeredAt: doc.last_triggered_at ?? null,
      lastResponseStatus: doc.last_response_status ?? null,
      attempts: doc.attempts ?? 0,
      failures: doc.failures ?? 0,
      resetGeneration: doc.reset_generation ?? 0,
    }));
  }

  /**
   * The log is ordered per subscription by a counter of its own (one update reserves a range), so
   * pages are stable whatever the clocks say, and settles of different subscriptions share no
   * counter document (one counter for all made every settle of every process conflict on it).
   */
  private async insertAttempts(attempts: readonly DeliveryAttempt[], session?: ClientSession): Promise<void> {
    const base = await this.legacyAttemptBase();
    const byWebhook = new Map<string, DeliveryAttempt[]>();
    for (const attempt of attempts) {
      const own = byWebhook.get(attempt.webhookId);
      if (own) own.push(attempt);
      else byWebhook.set(attempt.webhookId, [attempt]);
    }
    const docs: AttemptDoc[] = [];
    for (const [webhookId, own] of byWebhook) {
      const counter = await this.counters.findOneAndUpdate(
        { _id: attemptCounterOf(webhookId) },
        [{ $set: { seq: { $add: [{ $ifNull: ['$seq', base] }, own.length] } } }],
        { upsert: true, returnDocument: 'after', session },
      );
      const first = counter!.seq - own.length + 1;
      own.forEach((attempt, i) =>
        docs.push({
          _id: `${webhookId}:${first + i}`,
          seq: first + i,
          delivery_id: attempt.deliveryId,
          webhook_id: attempt.webhookId,
          workspace_id: attempt.workspaceId,
          event_type: attempt.eventType,
          attempt: attempt.attempt,
          attempted_at: attempt.attemptedAt,
          duration_ms: attempt.durationMs,
          succeeded: attempt.succeeded,
          response_status: attempt.responseStatus,
          response_body: attempt.responseBody,
          error: attempt.error,
          next_attempt_at: attempt.nextAttemptAt,
        }),
      );
    }
    await this.attempts.insertMany(docs, { session, ordered: true });
  }

  /** The last seq the legacy shared counter gave (0 without one), read once per process. */
  private legacyAttemptBase(): Promise<number> {
    if (!this.attemptBase) {
      const read = this.counters.findOne({ _id: LEGACY_ATTEMPT_COUNTER }).then((doc) => doc?.seq ?? 0);
      this.attemptBase = read;
      read.catch(() => {
        if (this.attemptBase === read) this.attemptBase = null;
      });
    }
    return this.attemptBase;
  }

  async listAttempts(webhookId: string, options: { beforeSeq?: number; limit: number }): Promise<StoredAttempt[]> {
    if (!(options.limit > 0)) return [];
    const docs = await this.attempts
      .find({ webhook_id: { $eq: webhookId }, seq: { $lt: options.beforeSeq ?? Number.MAX_SAFE_INTEGER } })
      .sort({ seq: -1 })
      .limit(Math.floor(options.limit))
      .toArray();
    return docs.map((doc) => storedAttempt(doc.seq, doc));
  }

  /** Off the `by_time` index: the window's attempts only. */
  countAllAttempts(options: { since: number; bucketMs: number }): Promise<AttemptCount[]> {
    return this.attemptCounts({ attempted_at: { $gte: options.since } }, options.bucketMs);
  }

  /** Two counts on the `due` index (status first). */
  async deliveryBacklog(): Promise<DeliveryBacklog> {
    const [all, retrying] = await Promise.all([
      this.deliveries.countDocuments({ status: 'pending' }),
      this.deliveries.countDocuments({ status: 'pending', attempts: { $gt: 0 } }),
    ]);
    return { pending: all - retrying, retrying };
  }

  /**
   * The paused routes and the failing subscriptions' telemetry (each collection holds one
   * document per subscription), joined here.
   */
  async troubledSubscriptions(limit: number): Promise<TroubledSubscription[]> {
    const max = Math.max(0, Math.floor(limit));
    if (max === 0) return [];
    const [paused, failing] = await Promise.all([
      this.routes.find({ active: false }).sort({ _id: 1 }).limit(max).toArray(),
      this.telemetry
        .find({ failure_count: { $gt: 0 } })
        .sort({ failure_count: -1, _id: 1 })
        .limit(max)
        .toArray(),
    ]);
    const ids = [...new Set([...paused.map((r) => r._id), ...failing.map((t) => t._id)])];
    const [routes, telemetry] = await Promise.all([
      this.routes.find({ _id: { $in: ids } }).toArray(),
      this.telemetry.find({ _id: { $in: ids } }).toArray(),
    ]);
    const telemetryOf = new Map(telemetry.map((t) => [t._id, t]));
    return routes
      .map((route) => {
        const t = telemetryOf.get(route._id);
        return {
          webhookId: route._id,
          workspaceId: route.workspace_id,
          active: route.active,
          failureCount: t?.failure_count ?? 0,
          lastAttemptAt: t?.last_attempt_at ?? null,
          lastResponseStatus: t?.last_response_status ?? null,
        };
      })
      .filter((s) => !s.active || s.failureCount > 0)
      .sort((a, b) => b.failureCount - a.failureCount || (a.webhookId < b.webhookId ? -1 : 1))
      .slice(0, max);
  }

  countAttempts(webhookId: string, options: { since: number; bucketMs: number }): Promise<AttemptCount[]> {
    return this.attemptCounts(
      { webhook_id: { $eq: webhookId }, attempted_at: { $gte: options.since } },
      options.bucketMs,
    );
  }

  /** One aggregation over the attempts `match` selects, grouped by period of `bucketMs`. */
  private async attemptCounts(match: Filter<AttemptDoc>, bucketMs: number): Promise<AttemptCount[]> {
    const bucket = Math.floor(bucketMs);
    if (!(bucket > 0)) throw new Error('bucketMs must be a positive number');
    const rows = await this.attempts
      .aggregate<AttemptCount>([
        { $match: match },
        {
          $group: {
            _id: { $subtract: ['$attempted_at', { $mod: ['$attempted_at', bucket] }] },
            succeeded: { $sum: { $cond: ['$succeeded', 1, 0] } },
            failed: { $sum: { $cond: ['$succeeded', 0, 1] } },
          },
        },
        { $sort: { _id: 1 } },
        { $project: { _id: 0, bucket: '$_id', succeeded: 1, failed: 1 } },
      ])
      .toArray();
    return rows.map((row) => ({ bucket: row.bucket, succeeded: row.succeeded, failed: row.failed }));
  }

  async requeueFailed(webhookId: string, options: { since: number; until: number; now: number }): Promise<number> {
    // A pipeline update: the new round starts at the delivery's own attempt count.
    const result = await this.deliveries.updateMany(
      { webhook_id: { $eq: webhookId }, status: 'failed', created_at: { $gte: options.since, $lt: options.until } },
      [
        {
          $set: {
            status: 'pending',
            next_attempt_at: options.now,
            round_start: '$attempts',
            last_error: null,
            settled_at: null,
          },
        },
      ],
    );
    return result.modifiedCount;
  }

  async requeueDelivery(webhookId: string, deliveryId: string, now: number): Promise<RequeueOutcome> {
    const result = await this.deliveries.updateOne(
      { _id: { $eq: deliveryId }, webhook_id: { $eq: webhookId }, status: { $in: ['failed', 'succeeded'] } },
      [
        {
          $set: {
            status: 'pending',
            next_attempt_at: now,
            round_start: '$attempts',
            last_error: null,
            settled_at: null,
          },
        },
      ],
    );
    if (result.modifiedCount === 1) return 'queued';
    const found = await this.deliveries.countDocuments({ _id: { $eq: deliveryId }, webhook_id: { $eq: webhookId } });
    return found > 0 ? 'already_queued' : 'not_found';
  }

  async prune(before: number): Promise<void> {
    await this.deliveries.deleteMany({ status: { $in: ['succeeded', 'failed'] }, settled_at: { $lt: before } });
    await this.attempts.deleteMany({ attempted_at: { $lt: before } });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}
