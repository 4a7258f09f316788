import { setImmediate } from 'node:timers/promises';
import Database from './sqlite-driver';
import {
  AttemptRecord,
  BatchSettlingQueue,
  claimedDelivery,
  DeliveryRecord,
  storedAttempt,
} from '../webhooks/stored-webhook-queue';
import { openSharedFile } from './sqlite-open';
import { limitSql, StatementsByLimit } from './sqlite-limit';
import { randomBytes } from 'node:crypto';
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
  StoredAttempt,
  TroubledSubscription,
  TelemetryChange,
  WebhookQueue,
  WebhookRoute,
  WebhookTelemetry,
} from '@app/application/ports';
import { telemetryDeltas } from '../webhooks/telemetry-deltas';

interface DeliveryRow extends DeliveryRecord {
  id: string;
  claim_token: string | null;
}

interface AttemptRow extends AttemptRecord<number> {
  seq: number;
}

interface TelemetryRow {
  webhook_id: string;
  failure_count: number;
  last_attempt_at: number | null;
  last_triggered_at: number | null;
  last_response_status: number | null;
  attempts: number;
  failures: number;
  reset_generation: number;
}

const FANOUT = 'fanout';

const PRUNE_CHUNK = 5_000;

/**
 * The embedded webhook queue: one SQLite file (WAL) beside the event store.
 *
 * A claim moves a delivery's `next_attempt_at` to the end of its lease and stamps a claim token,
 * in one UPDATE ... RETURNING: SQLite serialises writers, so two workers (threads or processes on
 * this file) never claim the same row, and a delivery whose worker died becomes due again when
 * its lease ends. Settling checks the token, so a worker that lost its lease writes nothing.
 *
 * `synchronous=NORMAL` is enough here: in WAL mode a power cut can only lose the newest
 * transactions whole. A lost fan-out batch is redone from the checkpoint it was committed with
 * (delivery ids are deterministic), a lost settlement means one more attempt: at least once.
 * The worker claims and settles in batches (one transaction each), so the WAL grows by a few
 * pages per batch rather than per delivery, and SQLite's own checkpoints stay rare.
 *
 * Indexes are shaped for the hot path: the due index holds pending deliveries only (a settled
 * delivery leaves it for good), and settling touches no other index but the retention one.
 */
export class SqliteWebhookQueue extends BatchSettlingQueue implements WebhookQueue {
  private readonly db: Database.Database;
  private stmt!: ReturnType<SqliteWebhookQueue['prepare']>;

  constructor(file: string) {
    super();
    this.db = openSharedFile(file);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS webhook_fanout (
        name TEXT PRIMARY KEY, position INTEGER NOT NULL, owner TEXT, lease_until INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS webhook_routes (
        webhook_id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, event_types TEXT NOT NULL, active INTEGER NOT NULL
      );
      CREATE TABLE IF NOT EXISTS webhook_deliveries (
        id TEXT PRIMARY KEY, webhook_id TEXT NOT NULL, workspace_id TEXT NOT NULL, event_id TEXT NOT NULL,
        event_type TEXT NOT NULL, payload TEXT NOT NULL, created_at INTEGER NOT NULL, status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, round_start INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL,
        lease_owner TEXT, claim_token TEXT, last_error TEXT, settled_at INTEGER
      );
      DROP INDEX IF EXISTS webhook_deliveries_due;
      DROP INDEX IF EXISTS webhook_deliveries_by_webhook;
      CREATE INDEX IF NOT EXISTS webhook_deliveries_pending_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX IF NOT EXISTS webhook_deliveries_by_webhook_time ON webhook_deliveries (webhook_id, created_at);
      CREATE INDEX IF NOT EXISTS webhook_deliveries_settled ON webhook_deliveries (settled_at) WHERE settled_at IS NOT NULL;
      -- Only the deliveries claimed right now (a settlement or a release clears the owner): a few rows.
      CREATE INDEX IF NOT EXISTS webhook_deliveries_claimed ON webhook_deliveries (lease_owner) WHERE lease_owner IS NOT NULL;
      CREATE TABLE IF NOT EXISTS webhook_attempts (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, delivery_id TEXT NOT NULL, webhook_id TEXT NOT NULL,
        workspace_id TEXT NOT NULL, event_type TEXT NOT NULL, attempt INTEGER NOT NULL, attempted_at INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL, succeeded INTEGER NOT NULL, response_status INTEGER, response_body TEXT,
        error TEXT, next_attempt_at INTEGER
      );
      CREATE INDEX IF NOT EXISTS webhook_attempts_by_webhook ON webhook_attempts (webhook_id, seq);
      CREATE INDEX IF NOT EXISTS webhook_attempts_by_time ON webhook_attempts (attempted_at);
      -- One row per subscription, rewritten in place: it never grows with the attempts.
      -- batch_base is the count the last settle batch started from (returned to the worker).
      CREATE TABLE IF NOT EXISTS webhook_telemetry (
        webhook_id TEXT PRIMARY KEY, failure_count INTEGER NOT NULL DEFAULT 0, batch_base INTEGER NOT NULL DEFAULT 0,
        last_attempt_at INTEGER, last_triggered_at INTEGER, last_response_status INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0, reset_generation INTEGER NOT NULL DEFAULT 0
      );
    `);
    this.stmt = this.prepare();
  }

  private prepare() {
    const db = this.db;
    return {
      fanout: db.prepare<[string], { position: number; owner: string | null; lease_until: number }>(
        'SELECT position, owner, lease_until FROM webhook_fanout WHERE name = ?',
      ),
      insertFanout: db.prepare('INSERT INTO webhook_fanout (name, position, owner, lease_until) VALUES (?, 0, ?, ?)'),
      takeFanout: db.prepare('UPDATE webhook_fanout SET owner = ?, lease_until = ? WHERE name = ?'),
      releaseFanout: db.prepare('UPDATE webhook_fanout SET lease_until = 0 WHERE name = ? AND owner = ?'),
      moveCheckpoint: db.prepare('UPDATE webhook_fanout SET position = max(position, ?) WHERE name = ?'),
      routes: db.prepare<[], { webhook_id: string; workspace_id: string; event_types: string; active: number }>(
        'SELECT * FROM webhook_routes',
      ),
      upsertRoute: db.prepare(
        `INSERT INTO webhook_routes (webhook_id, workspace_id, event_types, active) VALUES (?, ?, ?, ?)
         ON CONFLICT (webhook_id) DO UPDATE SET workspace_id = excluded.workspace_id,
           event_types = excluded.event_types, active = excluded.active`,
      ),
      deleteRoute: db.prepare('DELETE FROM webhook_routes WHERE webhook_id = ?'),
      deleteDeliveriesOf: db.prepare('DELETE FROM webhook_deliveries WHERE webhook_id = ?'),
      deleteAttemptsOf: db.prepare('DELETE FROM webhook_attempts WHERE webhook_id = ?'),
      deleteTelemetryOf: db.prepare('DELETE FROM webhook_telemetry WHERE webhook_id = ?'),
      // Every expression of the UPDATE reads the row as it was: the reset (a newer generation)
      // is applied first, then the batch's attempts, in order (see telemetryDeltas).
      settleTelemetry: db.prepare<
        {
          webhookId: string;
          generation: number;
          attempts: number;
          failures: number;
          anySuccess: number;
          trailing: number;
          lastAt: number;
          status: number | null;
        },
        { batch_base: number; failure_count: number }
      >(
        `INSERT INTO webhook_telemetry (webhook_id, failure_count, batch_base, last_attempt_at, last_triggered_at,
           last_response_status, attempts, failures, reset_generation)
         VALUES (@webhookId, CASE WHEN @anySuccess THEN @trailing ELSE @failures END, 0, @lastAt, @lastAt, @status,
           @attempts, @failures, @generation)
         ON CONFLICT (webhook_id) DO UPDATE SET
           batch_base = CASE WHEN reset_generation < @generation THEN 0 ELSE failure_count END,
           failure_count = CASE WHEN @anySuccess THEN @trailing
                                WHEN reset_generation < @generation THEN @failures
                                ELSE failure_count + @failures END,
           last_response_status = CASE WHEN @lastAt >= coalesce(last_attempt_at, -1) THEN @status ELSE last_response_status END,
           last_attempt_at = max(coalesce(last_attempt_at, @lastAt), @lastAt),
           last_triggered_at = max(coalesce(last_triggered_at, @lastAt), @lastAt),
           attempts = attempts + @attempts,
           failures = failures + @failures,
           reset_generation = max(reset_generation, @generation)
         RETURNING batch_base, failure_count`,
      ),
      triggered: db.prepare(
        `INSERT INTO webhook_telemetry (webhook_id, last_triggered_at) VALUES (?, ?)
         ON CONFLICT (webhook_id) DO UPDATE SET last_triggered_at = max(coalesce(last_triggered_at, excluded.last_triggered_at), excluded.last_triggered_at)`,
      ),
      resetFailures: db.prepare(
        `INSERT INTO webhook_telemetry (webhook_id, reset_generation) VALUES (?, ?)
         ON CONFLICT (webhook_id) DO UPDATE SET failure_count = 0, reset_generation = excluded.reset_generation
         WHERE reset_generation < excluded.reset_generation`,
      ),
      telemetry: db.prepare<[string], TelemetryRow>(
        'SELECT * FROM webhook_telemetry WHERE webhook_id IN (SELECT value FROM json_each(?))',
      ),
      insertDelivery: db.prepare(
        `INSERT OR IGNORE INTO webhook_deliveries
           (id, webhook_id, workspace_id, event_id, event_type, payload, created_at, status, next_attempt_at)
         VALUES (@id, @webhookId, @workspaceId, @eventId, @eventType, @payload, @createdAt, 'pending', @nextAttemptAt)`,
      ),
      // A worker claims as many as it has free slots (1 to its concurrency, 64 by default).
      claim: new StatementsByLimit(
        (limit) =>
          db.prepare<{ owner: string; token: string; now: number; leaseUntil: number }, DeliveryRow>(
            `UPDATE webhook_deliveries SET next_attempt_at = @leaseUntil, lease_owner = @owner, claim_token = @token || ':' || id
             WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= @now
                          ORDER BY next_attempt_at ${limit})
             RETURNING id, webhook_id, workspace_id, event_id, event_type, payload, created_at, attempts, round_start,
                       next_attempt_at, claim_token`,
          ),
        128,
      ),
      settle: db.prepare(
        `UPDATE webhook_deliveries SET status = @status, attempts = attempts + @attempted, next_attempt_at = @nextAttemptAt,
           lease_owner = NULL, claim_token = NULL, last_error = @lastError, settled_at = @settledAt
         WHERE id = @id AND claim_token = @claimToken`,
      ),
      release: db.prepare(
        `UPDATE webhook_deliveries SET next_attempt_at = ?, lease_owner = NULL, claim_token = NULL WHERE id = ? AND claim_token = ?`,
      ),
      claimOwners: db.prepare<[number], { lease_owner: string }>(
        `SELECT DISTINCT lease_owner FROM webhook_deliveries
         WHERE lease_owner IS NOT NULL AND status = 'pending' AND next_attempt_at > ?`,
      ),
      releaseClaimsOf: db.prepare<{ owner: string; now: number }>(
        `UPDATE webhook_deliveries SET next_attempt_at = @now, lease_owner = NULL, claim_token = NULL
         WHERE lease_owner = @owner AND status = 'pending'`,
      ),
      nextDue: db.prepare<[], { due: number | null }>(
        "SELECT min(next_attempt_at) AS due FROM webhook_deliveries WHERE status = 'pending'",
      ),
      insertAttempt: db.prepare(
        `INSERT INTO webhook_attempts (delivery_id, webhook_id, workspace_id, event_type, attempt, attempted_at, duration_ms,
           succeeded, response_status, response_body, error, next_attempt_at)
         VALUES (@deliveryId, @webhookId, @workspaceId, @eventType, @attempt, @attemptedAt, @durationMs, @succeeded,
           @responseStatus, @responseBody, @error, @nextAttemptAt)`,
      ),
      attempts: new StatementsByLimit((limit) =>
        db.prepare<[string, number], AttemptRow>(
          `SELECT * FROM webhook_attempts WHERE webhook_id = ? AND seq < ? ORDER BY seq DESC ${limit}`,
        ),
      ),
      requeue: db.prepare(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = @now, round_start = attempts,
           last_error = NULL, settled_at = NULL
         WHERE webhook_id = @webhookId AND status = 'failed' AND created_at >= @since AND created_at < @until`,
      ),
      requeueOne: db.prepare(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = @now, round_start = attempts,
           last_error = NULL, settled_at = NULL
         WHERE id = @deliveryId AND webhook_id = @webhookId AND status IN ('failed', 'succeeded')`,
      ),
      deliveryStatus: db.prepare<[string, string], { status: string }>(
        `SELECT status FROM webhook_deliveries WHERE id = ? AND webhook_id = ?`,
      ),
      // In chunks (see prune), each found through an index: settled_at is only set on settled deliveries.
      pruneDeliveries: db.prepare(
        `DELETE FROM webhook_deliveries WHERE rowid IN (SELECT rowid FROM webhook_deliveries
           WHERE settled_at < ? AND status IN ('succeeded', 'failed') ${limitSql(PRUNE_CHUNK)})`,
      ),
      pruneAttempts: db.prepare(
        `DELETE FROM webhook_attempts WHERE seq IN (SELECT seq FROM webhook_attempts WHERE attempted_at < ? ${limitSql(PRUNE_CHUNK)})`,
      ),
    };
  }

  async init(): Promise<void> {
    // The schema is created by the constructor; nothing to wait for.
  }

  async acquireFanout(owner: string, now: number, leaseMs: number): Promise<{ checkpoint: number } | null> {
    return this.db
      .transaction(() => {
        const row = this.stmt.fanout.get(FANOUT);
        if (!row) {
          this.stmt.insertFanout.run(FANOUT, owner, now + leaseMs);
          return { checkpoint: 0 };
        }
        if (row.owner !== owner && row.lease_until > now) return null;
        this.stmt.takeFanout.run(owner, now + leaseMs, FANOUT);
        return { checkpoint: row.position };
      })
      .immediate();
  }

  async releaseFanout(owner: string): Promise<void> {
    this.stmt.releaseFanout.run(FANOUT, owner);
  }

  async fanoutHolder(): Promise<{ owner: string; leaseUntil: number } | null> {
    const row = this.stmt.fanout.get(FANOUT);
    return row?.owner ? { owner: row.owner, leaseUntil: row.lease_until } : null;
  }

  async loadRoutes(): Promise<WebhookRoute[]> {
    return this.stmt.routes.all().map((row) => ({
      webhookId: row.webhook_id,
      workspaceId: row.workspace_id,
      eventTypes: JSON.parse(row.event_types) as string[],
      active: row.active === 1,
    }));
  }

  async commitFanout(owner: string, batch: FanoutBatch): Promise<void> {
    this.db
      .transaction(() => {
        if (this.stmt.fanout.get(FANOUT)?.owner !== owner) throw new FanoutLeaseLostError(owner);
        for (const route of batch.upsertRoutes) {
          this.stmt.upsertRoute.run(
            route.webhookId,
            route.workspaceId,
            JSON.stringify(route.eventTypes),
            route.active ? 1 : 0,
          );
        }
        for (const webhookId of batch.removeRoutes) {
          this.stmt.deleteRoute.run(webhookId);
          this.stmt.deleteDeliveriesOf.run(webhookId);
          this.stmt.deleteAttemptsOf.run(webhookId);
          this.stmt.deleteTelemetryOf.run(webhookId);
        }
        for (const reset of batch.resetFailures ?? []) this.stmt.resetFailures.run(reset.webhookId, reset.generation);
        for (const delivery of batch.deliveries) this.stmt.insertDelivery.run(delivery);
        this.stmt.moveCheckpoint.run(batch.checkpoint, FANOUT);
      })
      .immediate();
  }

  async claimDue(owner: string, now: number, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const token = randomBytes(9).toString('base64url');
    const rows = this.stmt.claim.get(Math.floor(limit)).all({ owner, token, now, leaseUntil: now + leaseMs });
    return rows.map((row) => claimedDelivery(row.id, row, row.claim_token!));
  }

  /**
   * One transaction for the whole batch: one WAL commit instead of one per attempt, the telemetry
   * included (one statement per subscription of the batch).
   */
  async settleMany(requests: readonly SettleRequest[]): Promise<SettleResult> {
    if (requests.length === 0) return { settled: [], telemetry: [] };
    return this.db.transaction(() => {
      const settled = requests.map((request) => this.settleOne(request));
      const attempted = requests.filter((request, i) => settled[i] && request.attempt) as (SettleRequest & {
        attempt: DeliveryAttempt;
      })[];
      const telemetry: TelemetryChange[] = telemetryDeltas(attempted).map((delta) => {
        const row = this.stmt.settleTelemetry.get({
          webhookId: delta.webhookId,
          generation: delta.resetGeneration,
          attempts: delta.attempts,
          failures: delta.failures,
          anySuccess: delta.anySuccess ? 1 : 0,
          trailing: delta.trailingFailures,
          lastAt: delta.lastAttemptedAt,
          status: delta.lastResponseStatus,
        })!;
        return { webhookId: delta.webhookId, failureCountBefore: row.batch_base, failureCount: row.failure_count };
      });
      return { settled, telemetry };
    })();
  }

  private settleOne({ claim, attempt, settlement }: SettleRequest): boolean {
    const changed = this.stmt.settle.run({
      id: claim.id,
      claimToken: claim.claimToken,
      status: settlement.status === 'retry' ? 'pending' : settlement.status,
      attempted: attempt ? 1 : 0,
      nextAttemptAt: settlement.status === 'retry' ? settlement.nextAttemptAt : 0,
      lastError: settlement.status === 'failed' ? settlement.reason : (attempt?.error ?? null),
      settledAt: settlement.status === 'retry' ? null : (attempt?.attemptedAt ?? Date.now()),
    }).changes;
    if (changed === 0) return false;
    if (attempt) this.insertAttempt(attempt);
    return true;
  }

  async release(claim: { id: string; claimToken: string }): Promise<void> {
    this.stmt.release.run(Date.now(), claim.id, claim.claimToken);
  }

  async claimOwners(now: number): Promise<string[]> {
    return this.stmt.claimOwners.all(now).map((row) => row.lease_owner);
  }

  async releaseClaimsOf(owner: string, now: number): Promise<number> {
    return this.stmt.releaseClaimsOf.run({ owner, now }).changes;
  }

  async nextDueAt(): Promise<number | null> {
    return this.stmt.nextDue.get()?.due ?? null;
  }

  async recordAttempt(attempt: DeliveryAttempt): Promise<void> {
    this.db.transaction(() => {
      this.insertAttempt(attempt);
      this.stmt.triggered.run(attempt.webhookId, attempt.attemptedAt);
    })();
  }

  async resetFailures(webhookId: string, generation: number): Promise<void> {
    this.stmt.resetFailures.run(webhookId, generation);
  }

  async loadTelemetry(webhookIds: readonly string[]): Promise<WebhookTelemetry[]> {
    if (webhookIds.length === 0) return [];
    return this.stmt.telemetry.all(JSON.stringify(webhookIds)).map((row) => ({
      webhookId: row.webhook_id,
      failureCount: row.failure_count,
      lastAttemptAt: row.last_attempt_at,
      lastTriggeredAt: row.last_triggered_at,
      lastResponseStatus: row.last_response_status,
      attempts: row.attempts,
      failures: row.failures,
      resetGeneration: row.reset_generation,
    }));
  }

  private insertAttempt(attempt: DeliveryAttempt) {
    this.stmt.insertAttempt.run({ ...attempt, succeeded: attempt.succeeded ? 1 : 0 });
  }

  async listAttempts(webhookId: string, options: { beforeSeq?: number; limit: number }): Promise<StoredAttempt[]> {
    return this.stmt.attempts
      .get(options.limit)
      .all(webhookId, options.beforeSeq ?? Number.MAX_SAFE_INTEGER)
      .map((row) => storedAttempt(row.seq, { ...row, succeeded: row.succeeded === 1 }));
  }

  /** Read off the subscription's attempts (its index), which pruning keeps to the retention period. */
  /** Off the index on `attempted_at`: the window's attempts only. */
  async countAllAttempts(options: { since: number; bucketMs: number }): Promise<AttemptCount[]> {
    const bucketMs = Math.floor(options.bucketMs);
    if (!(bucketMs > 0)) throw new Error('bucketMs must be a positive number');
    return this.db
      .prepare(
        `SELECT attempted_at - (attempted_at % @bucketMs) AS bucket, sum(succeeded) AS succeeded,
                count(*) - sum(succeeded) AS failed
         FROM webhook_attempts WHERE attempted_at >= @since
         GROUP BY bucket ORDER BY bucket`,
      )
      .all({ since: options.since, bucketMs }) as AttemptCount[];
  }

  /** Off the partial index of pending deliveries: the backlog's rows only. */
  async deliveryBacklog(): Promise<DeliveryBacklog> {
    const row = this.db
      .prepare<[], { pending: number; retrying: number | null }>(
        `SELECT count(*) - coalesce(sum(attempts > 0), 0) AS pending, coalesce(sum(attempts > 0), 0) AS retrying
         FROM webhook_deliveries WHERE status = 'pending'`,
      )
      .get();
    return { pending: row?.pending ?? 0, retrying: row?.retrying ?? 0 };
  }

  async troubledSubscriptions(limit: number): Promise<TroubledSubscription[]> {
    const rows = this.db
      .prepare<
        [],
        {
          webhook_id: string;
          workspace_id: string;
          active: number;
          failure_count: number;
          last_attempt_at: number | null;
          last_response_status: number | null;
        }
      >(
        `SELECT r.webhook_id, r.workspace_id, r.active, coalesce(t.failure_count, 0) AS failure_count,
                t.last_attempt_at, t.last_response_status
         FROM webhook_routes r LEFT JOIN webhook_telemetry t ON t.webhook_id = r.webhook_id
         WHERE r.active = 0 OR t.failure_count > 0
         ORDER BY failure_count DESC, r.webhook_id ${limitSql(Math.max(0, Math.floor(limit)))}`,
      )
      .all();
    return rows.map((row) => ({
      webhookId: row.webhook_id,
      workspaceId: row.workspace_id,
      active: row.active === 1,
      failureCount: row.failure_count,
      lastAttemptAt: row.last_attempt_at,
      lastResponseStatus: row.last_response_status,
    }));
  }

  async countAttempts(webhookId: string, options: { since: number; bucketMs: number }): Promise<AttemptCount[]> {
    const bucketMs = Math.floor(options.bucketMs);
    if (!(bucketMs > 0)) throw new Error('bucketMs must be a positive number');
    return this.db
      .prepare(
        `SELECT attempted_at - (attempted_at % @bucketMs) AS bucket, sum(succeeded) AS succeeded,
                count(*) - sum(succeeded) AS failed
         FROM webhook_attempts WHERE webhook_id = @webhookId AND attempted_at >= @since
         GROUP BY bucket ORDER BY bucket`,
      )
      .all({ webhookId, since: options.since, bucketMs }) as AttemptCount[];
  }

  async requeueFailed(webhookId: string, options: { since: number; until: number; now: number }): Promise<number> {
    return this.stmt.requeue.run({ webhookId, ...options }).changes;
  }

  async requeueDelivery(webhookId: string, deliveryId: string, now: number): Promise<RequeueOutcome> {
    if (this.stmt.requeueOne.run({ webhookId, deliveryId, now }).changes === 1) return 'queued';
    return this.stmt.deliveryStatus.get(deliveryId, webhookId) ? 'already_queued' : 'not_found';
  }

  /**
   * Deletes in chunks with a turn of the event loop between them: a month of deliveries can be
   * millions of rows, and one statement that large would stop the process while it runs.
   */
  async prune(before: number): Promise<void> {
    for (const statement of [this.stmt.pruneDeliveries, this.stmt.pruneAttempts]) {
      while (this.db.open && statement.run(before).changes === PRUNE_CHUNK) {
        await setImmediate();
      }
    }
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
