import { randomUUID } from 'node:crypto';
import { DeliveryAttempt, FanoutLeaseLostError, NewDelivery, WebhookQueue } from '@app/application/ports';

/**
 * The behaviour every WebhookQueue adapter must show. Run by sqlite-webhook-queue.contract.spec.ts
 * (always) and mongodb-webhook-queue.contract.spec.ts (when MONGODB_URL is set). `open` gives a
 * fresh, empty queue; `openSecond` (optional) a second handle on the same storage, standing in for
 * another dispatcher process.
 */
export function webhookQueueContract(
  name: string,
  open: () => Promise<{ queue: WebhookQueue; openSecond: () => Promise<WebhookQueue>; close: () => Promise<void> }>,
) {
  describe(`WebhookQueue contract: ${name}`, () => {
    let queue: WebhookQueue;
    let openSecond: () => Promise<WebhookQueue>;
    let close: () => Promise<void>;
    const T0 = 1_700_000_000_000;

    beforeEach(async () => {
      ({ queue, openSecond, close } = await open());
      await queue.init();
    });
    afterEach(async () => {
      await close();
    });

    const delivery = (overrides: Partial<NewDelivery> = {}): NewDelivery => ({
      id: `msg_${randomUUID().replace(/-/g, '')}`,
      webhookId: 'whk_1',
      workspaceId: 'ws_1',
      eventId: randomUUID(),
      eventType: 'project.created',
      payload: '{"type":"project.created","data":{"id":"p1","name":"Ünïcode"}}',
      createdAt: T0,
      nextAttemptAt: T0,
      ...overrides,
    });
    const attemptOf = (
      d: { id: string; webhookId: string },
      n: number,
      overrides: Partial<DeliveryAttempt> = {},
    ): DeliveryAttempt => ({
      deliveryId: d.id,
      webhookId: d.webhookId,
      workspaceId: 'ws_1',
      eventType: 'project.created',
      attempt: n,
      attemptedAt: T0 + n,
      durationMs: 12,
      succeeded: false,
      responseStatus: 500,
      responseBody: 'oops',
      error: null,
      nextAttemptAt: null,
      ...overrides,
    });
    const enqueue = async (...deliveries: NewDelivery[]) => {
      expect(await queue.acquireFanout('owner-a', T0, 10_000)).not.toBeNull();
      await queue.commitFanout('owner-a', { checkpoint: 1, upsertRoutes: [], removeRoutes: [], deliveries });
    };

    describe('fan-out lease, checkpoint and routes', () => {
      it('gives the lease to one owner at a time, renews it for its holder and hands it over when it ends', async () => {
        expect(await queue.fanoutHolder()).toBeNull();
        expect(await queue.acquireFanout('a', T0, 1_000)).toEqual({ checkpoint: 0 });
        expect(await queue.acquireFanout('b', T0 + 500, 1_000)).toBeNull();
        expect(await queue.acquireFanout('a', T0 + 900, 1_000)).toEqual({ checkpoint: 0 });
        expect(await queue.acquireFanout('b', T0 + 1_500, 1_000)).toBeNull();
        expect(await queue.acquireFanout('b', T0 + 1_901, 1_000)).toEqual({ checkpoint: 0 });
        expect(await queue.fanoutHolder()).toEqual({ owner: 'b', leaseUntil: T0 + 2_901 });
        await queue.releaseFanout('b');
        expect(await queue.acquireFanout('a', T0 + 1_902, 1_000)).toEqual({ checkpoint: 0 });
      });

      it('commits routes, deliveries and the checkpoint together, only for the lease holder', async () => {
        await queue.acquireFanout('a', T0, 1_000);
        const route = { webhookId: 'whk_1', workspaceId: 'ws_1', eventTypes: ['project.created'], active: true };
        await queue.commitFanout('a', {
          checkpoint: 7,
          upsertRoutes: [route],
          removeRoutes: [],
          deliveries: [delivery()],
        });
        expect(await queue.loadRoutes()).toEqual([route]);
        await expect(
          queue.commitFanout('b', { checkpoint: 9, upsertRoutes: [], removeRoutes: [], deliveries: [delivery()] }),
        ).rejects.toBeInstanceOf(FanoutLeaseLostError);
        expect(await queue.claimDue('w', T0, 10, 1_000)).toHaveLength(1);
        await queue.releaseFanout('a');
        expect(await queue.acquireFanout('b', T0 + 1, 1_000)).toEqual({ checkpoint: 7 });
        const paused = { ...route, eventTypes: ['project.created', 'job.deleted'], active: false };
        await queue.commitFanout('b', { checkpoint: 8, upsertRoutes: [paused], removeRoutes: [], deliveries: [] });
        expect(await queue.loadRoutes()).toEqual([paused]);
      });

      it('ignores a delivery committed twice (a batch replayed after a crash) and never moves the checkpoint back', async () => {
        await queue.acquireFanout('a', T0, 1_000);
        const d = delivery();
        await queue.commitFanout('a', { checkpoint: 5, upsertRoutes: [], removeRoutes: [], deliveries: [d] });
        await queue.commitFanout('a', {
          checkpoint: 4,
          upsertRoutes: [],
          removeRoutes: [],
          deliveries: [d, { ...d, payload: 'other' }],
        });
        const claimed = await queue.claimDue('w', T0, 10, 1_000);
        expect(claimed.map((c) => c.payload)).toEqual([d.payload]);
        await queue.releaseFanout('a');
        expect(await queue.acquireFanout('a', T0, 1_000)).toEqual({ checkpoint: 5 });
      });

      it('removing a route drops its deliveries and attempt log', async () => {
        const kept = delivery({ webhookId: 'whk_keep' });
        const gone = delivery({ webhookId: 'whk_gone' });
        await enqueue(kept, gone);
        await queue.recordAttempt(attemptOf(gone, 1));
        const route = (id: string) => ({
          webhookId: id,
          workspaceId: 'ws_1',
          eventTypes: ['project.created'],
          active: true,
        });
        await queue.commitFanout('owner-a', {
          checkpoint: 2,
          upsertRoutes: [route('whk_keep'), route('whk_gone')],
          removeRoutes: [],
          deliveries: [],
        });
        await queue.commitFanout('owner-a', {
          checkpoint: 3,
          upsertRoutes: [],
          removeRoutes: ['whk_gone'],
          deliveries: [],
        });
        expect((await queue.loadRoutes()).map((r) => r.webhookId)).toEqual(['whk_keep']);
        expect((await queue.claimDue('w', T0, 10, 1_000)).map((c) => c.id)).toEqual([kept.id]);
        expect(await queue.listAttempts('whk_gone', { limit: 10 })).toEqual([]);
      });
    });

    describe('claims and settlement', () => {
      it('claims due deliveries oldest due first, with the full envelope, and not before they are due', async () => {
        const later = delivery({ nextAttemptAt: T0 + 5_000 });
        const first = delivery({ nextAttemptAt: T0 - 10 });
        const second = delivery({ nextAttemptAt: T0 });
        await enqueue(later, first, second);
        const claimed = await queue.claimDue('w', T0, 10, 1_000);
        expect(claimed.map((c) => c.id)).toEqual([first.id, second.id]);
        expect(claimed[0]).toMatchObject({
          ...first,
          nextAttemptAt: T0 + 1_000,
          attempts: 0,
          roundStart: 0,
          leaseUntil: T0 + 1_000,
        });
        expect(typeof claimed[0].claimToken).toBe('string');
        expect(await queue.nextDueAt()).toBe(T0 + 1_000);
        expect(await queue.claimDue('w', T0 + 4_999, 10, 1_000)).toHaveLength(2); // the two leases ended
      });

      it('never gives one delivery to two workers while the lease runs, even from another handle', async () => {
        const deliveries = Array.from({ length: 40 }, () => delivery());
        await enqueue(...deliveries);
        const other = await openSecond();
        try {
          const batches = await Promise.all([
            queue.claimDue('w1', T0, 15, 60_000),
            other.claimDue('w2', T0, 15, 60_000),
            queue.claimDue('w3', T0, 15, 60_000),
            other.claimDue('w4', T0, 15, 60_000),
          ]);
          const ids = batches.flat().map((c) => c.id);
          expect(ids).toHaveLength(40);
          expect(new Set(ids).size).toBe(40);
          expect(await queue.claimDue('w5', T0 + 59_999, 10, 60_000)).toEqual([]);
        } finally {
          await other.close();
        }
      });

      it('settles a retry with its attempt; the next claim sees the count', async () => {
        const d = delivery();
        await enqueue(d);
        const [claim] = await queue.claimDue('w', T0, 1, 1_000);
        const attempt = attemptOf(d, 1, { nextAttemptAt: T0 + 300 });
        expect(await queue.settle(claim, attempt, { status: 'retry', nextAttemptAt: T0 + 300 })).toBe(true);
        expect(await queue.nextDueAt()).toBe(T0 + 300);
        expect(await queue.claimDue('w', T0 + 299, 1, 1_000)).toEqual([]);
        const [again] = await queue.claimDue('w', T0 + 300, 1, 1_000);
        expect(again).toMatchObject({ id: d.id, attempts: 1, roundStart: 0 });
        expect(
          await queue.settle(again, attemptOf(d, 2, { succeeded: true, responseStatus: 204 }), { status: 'succeeded' }),
        ).toBe(true);
        expect(await queue.nextDueAt()).toBeNull();
        const log = await queue.listAttempts(d.webhookId, { limit: 10 });
        expect(log.map((a) => a.attempt)).toEqual([2, 1]);
        expect(log[1]).toEqual({ ...attempt, seq: log[1].seq });
        expect(log[0].seq).toBeGreaterThan(log[1].seq);
      });

      it('refuses a settlement with a stale claim (the lease went to another worker)', async () => {
        const d = delivery();
        await enqueue(d);
        const [stale] = await queue.claimDue('w1', T0, 1, 1_000);
        const [current] = await queue.claimDue('w2', T0 + 1_000, 1, 1_000);
        expect(current.id).toBe(d.id);
        expect(await queue.settle(stale, attemptOf(d, 1), { status: 'failed', reason: 'x' })).toBe(false);
        expect(await queue.listAttempts(d.webhookId, { limit: 10 })).toEqual([]);
        expect(await queue.settle(current, attemptOf(d, 1), { status: 'succeeded' })).toBe(true);
      });

      it('gives a released claim back, due at once, without counting an attempt', async () => {
        const d = delivery();
        await enqueue(d);
        const [claim] = await queue.claimDue('w', T0, 1, 60_000);
        await queue.release(claim);
        const [again] = await queue.claimDue('w', Date.now() + 1, 1, 60_000);
        expect(again).toMatchObject({ id: d.id, attempts: 0 });
      });

      it("names the owners of running claims, and releases a dead one's claims: due at once, its late settlement void", async () => {
        const [a, b, c, d] = [delivery(), delivery(), delivery(), delivery()];
        await enqueue(a, b, c, d);
        expect(await queue.claimOwners(T0)).toEqual([]);
        const dead = await queue.claimDue('dead', T0, 2, 60_000);
        const [live] = await queue.claimDue('live', T0, 1, 60_000);
        await queue.claimDue('ended', T0, 1, 1_000);
        expect((await queue.claimOwners(T0 + 10)).sort()).toEqual(['dead', 'ended', 'live']);
        expect((await queue.claimOwners(T0 + 1_000)).sort()).toEqual(['dead', 'live']); // that lease ran out

        expect(await queue.releaseClaimsOf('dead', T0 + 20)).toBe(2);
        expect(await queue.claimOwners(T0 + 1_000)).toEqual(['live']);
        expect(await queue.nextDueAt()).toBe(T0 + 20);
        expect(await queue.settle(dead[0], attemptOf(dead[0], 1), { status: 'succeeded' })).toBe(false);
        const again = await queue.claimDue('restarted', T0 + 20, 10, 60_000);
        expect(again.map((x) => x.id).sort()).toEqual(dead.map((x) => x.id).sort());
        expect(again.every((x) => x.attempts === 0)).toBe(true);
        expect(await queue.listAttempts(a.webhookId, { limit: 10 })).toEqual([]);
        // Settled claims hold nothing: their owner is gone from the list.
        expect(await queue.settle(live, attemptOf(live, 1), { status: 'succeeded' })).toBe(true);
        for (const claim of again)
          expect(await queue.settle(claim, null, { status: 'failed', reason: 'x' })).toBe(true);
        expect(await queue.claimOwners(T0 + 1_000)).toEqual([]);
        expect(await queue.releaseClaimsOf('live', T0 + 30)).toBe(0);
      });

      it('settles a batch at once, each claim on its own: a stale one writes nothing, the others land', async () => {
        const [a, b, c, d] = [delivery(), delivery(), delivery(), delivery()];
        await enqueue(a, b, c, d);
        const claims = await queue.claimDue('w1', T0, 4, 1_000);
        const byId = new Map(claims.map((claim) => [claim.id, claim]));
        const [staleB] = [byId.get(b.id)!];
        await queue.release(staleB); // b's claim is given back: that claim is stale now
        expect(await queue.settleMany([])).toEqual({ settled: [], telemetry: [] });
        const { settled } = await queue.settleMany([
          {
            claim: byId.get(a.id)!,
            attempt: attemptOf(a, 1, { succeeded: true, responseStatus: 204 }),
            settlement: { status: 'succeeded' },
          },
          { claim: staleB, attempt: attemptOf(b, 1), settlement: { status: 'failed', reason: 'x' } },
          {
            claim: byId.get(c.id)!,
            attempt: attemptOf(c, 1, { nextAttemptAt: T0 + 300 }),
            settlement: { status: 'retry', nextAttemptAt: T0 + 300 },
          },
          { claim: byId.get(d.id)!, attempt: null, settlement: { status: 'failed', reason: 'Webhook paused' } },
        ]);
        expect(settled).toEqual([true, false, true, true]);
        const log = await queue.listAttempts('whk_1', { limit: 10 });
        expect(log.map((x) => x.deliveryId).sort()).toEqual([a.id, c.id].sort());
        expect(log[0].seq).toBeGreaterThan(log[1].seq);
        // b is still pending (released, due at once); c is due again later; a and d are done.
        const again = await queue.claimDue('w2', Date.now() + 1, 10, 1_000);
        expect(again.map((x) => x.id).sort()).toEqual([b.id, c.id].sort());
        expect(again.find((x) => x.id === c.id)).toMatchObject({ attempts: 1 });
      });

      it('settles without an attempt (paused or deleted subscription)', async () => {
        const d = delivery();
        await enqueue(d);
        const [claim] = await queue.claimDue('w', T0, 1, 1_000);
        expect(await queue.settle(claim, null, { status: 'failed', reason: 'Webhook paused' })).toBe(true);
        expect(await queue.listAttempts(d.webhookId, { limit: 10 })).toEqual([]);
        expect(await queue.claimDue('w', T0 + 10_000, 1, 1_000)).toEqual([]);
      });
    });

    describe('delivery telemetry', () => {
      const settleAll = async (
        outcomes: { ok: boolean; status?: number | null; at?: number; webhookId?: string }[],
        resetGeneration?: number,
      ) => {
        const deliveries = outcomes.map((o) => delivery({ webhookId: o.webhookId ?? 'whk_1' }));
        await enqueue(...deliveries);
        const claims = new Map((await queue.claimDue('w', T0, deliveries.length, 1_000)).map((c) => [c.id, c]));
        return queue.settleMany(
          deliveries.map((d, i) => ({
            claim: claims.get(d.id)!,
            attempt: attemptOf(d, 1, {
              succeeded: outcomes[i].ok,
              responseStatus: outcomes[i].status === undefined ? (outcomes[i].ok ? 204 : 500) : outcomes[i].status,
              attemptedAt: outcomes[i].at ?? T0 + i,
            }),
            settlement: outcomes[i].ok ? { status: 'succeeded' } : { status: 'failed', reason: 'Retries exhausted' },
            resetGeneration,
          })),
        );
      };
      const telemetryOf = async (webhookId = 'whk_1') => (await queue.loadTelemetry([webhookId]))[0];

      it('counts consecutive failures in the settling transaction, in request order; a success resets the count', async () => {
        expect(await queue.loadTelemetry(['whk_1'])).toEqual([]);
        const first = await settleAll([
          { ok: false },
          { ok: false, status: null, at: T0 + 7 },
          { ok: false, webhookId: 'whk_2', at: T0 + 3 },
        ]);
        expect(first.settled).toEqual([true, true, true]);
        expect(first.telemetry).toEqual(
          expect.arrayContaining([
            { webhookId: 'whk_1', failureCountBefore: 0, failureCount: 2 },
            { webhookId: 'whk_2', failureCountBefore: 0, failureCount: 1 },
          ]),
        );
        expect(first.telemetry).toHaveLength(2);
        expect(await telemetryOf()).toEqual({
          webhookId: 'whk_1',
          failureCount: 2,
          lastAttemptAt: T0 + 7,
          lastTriggeredAt: T0 + 7,
          lastResponseStatus: null,
          attempts: 2,
          failures: 2,
          resetGeneration: 0,
        });
        const second = await settleAll([
          { ok: false, at: T0 + 10 },
          { ok: true, at: T0 + 11 },
          { ok: false, at: T0 + 12, status: 503 },
        ]);
        expect(second.telemetry).toEqual([{ webhookId: 'whk_1', failureCountBefore: 2, failureCount: 1 }]);
        expect(await telemetryOf()).toMatchObject({
          failureCount: 1,
          lastAttemptAt: T0 + 12,
          lastResponseStatus: 503,
          attempts: 5,
          failures: 4,
        });
        const third = await settleAll([{ ok: false, at: T0 + 20 }]);
        expect(third.telemetry).toEqual([{ webhookId: 'whk_1', failureCountBefore: 1, failureCount: 2 }]);
        // An attempt that ended earlier than the latest one recorded never moves the times back.
        await settleAll([{ ok: true, at: T0 + 1, status: 200 }]);
        expect(await telemetryOf()).toMatchObject({
          failureCount: 0,
          lastAttemptAt: T0 + 20,
          lastTriggeredAt: T0 + 20,
          lastResponseStatus: 500,
        });
      });

      it('a stale claim or a settlement without an attempt leaves the telemetry alone', async () => {
        const [a, b] = [delivery(), delivery()];
        await enqueue(a, b);
        const claims = await queue.claimDue('w', T0, 2, 1_000);
        const stale = claims.find((c) => c.id === a.id)!;
        await queue.release(stale);
        const result = await queue.settleMany([
          { claim: stale, attempt: attemptOf(a, 1), settlement: { status: 'failed', reason: 'x' } },
          {
            claim: claims.find((c) => c.id === b.id)!,
            attempt: null,
            settlement: { status: 'failed', reason: 'Webhook paused' },
          },
        ]);
        expect(result).toEqual({ settled: [false, true], telemetry: [] });
        expect(await queue.loadTelemetry(['whk_1'])).toEqual([]);
      });

      it('a test delivery moves last_triggered_at only, never back, in the write that logs it', async () => {
        await settleAll([{ ok: false, at: T0 + 5 }]);
        await queue.recordAttempt(
          attemptOf({ id: 'msg_t', webhookId: 'whk_1' }, 1, {
            attemptedAt: T0 + 50,
            succeeded: true,
            eventType: 'webhook.test',
          }),
        );
        expect(await telemetryOf()).toMatchObject({
          failureCount: 1,
          lastAttemptAt: T0 + 5,
          lastTriggeredAt: T0 + 50,
          attempts: 1,
        });
        await queue.recordAttempt(attemptOf({ id: 'msg_u', webhookId: 'whk_1' }, 1, { attemptedAt: T0 + 40 }));
        expect(await telemetryOf()).toMatchObject({ failureCount: 1, lastTriggeredAt: T0 + 50 });
        expect((await queue.listAttempts('whk_1', { limit: 10 })).map((a) => a.deliveryId)).toEqual([
          'msg_u',
          'msg_t',
          expect.any(String),
        ]);
        // Before any dispatcher attempt, a test delivery alone.
        await queue.recordAttempt(attemptOf({ id: 'msg_v', webhookId: 'whk_new' }, 1, { attemptedAt: T0 + 60 }));
        expect(await telemetryOf('whk_new')).toEqual({
          webhookId: 'whk_new',
          failureCount: 0,
          lastAttemptAt: null,
          lastTriggeredAt: T0 + 60,
          lastResponseStatus: null,
          attempts: 0,
          failures: 0,
          resetGeneration: 0,
        });
      });

      it('applies each reset generation once: a late or repeated reset never wipes failures counted after it', async () => {
        await settleAll([{ ok: false }, { ok: false }, { ok: false }]);
        await queue.resetFailures('whk_1', 1);
        expect(await telemetryOf()).toMatchObject({ failureCount: 0, resetGeneration: 1, failures: 3 });
        await settleAll([{ ok: false }, { ok: false }], 1);
        await queue.resetFailures('whk_1', 1); // the fan-out passing the same re-activation
        expect(await telemetryOf()).toMatchObject({ failureCount: 2, resetGeneration: 1 });
        await queue.resetFailures('whk_1', 0);
        expect(await telemetryOf()).toMatchObject({ failureCount: 2 });
        // Reset before the first attempt: the row exists with the generation.
        await queue.resetFailures('whk_fresh', 3);
        expect(await telemetryOf('whk_fresh')).toMatchObject({
          failureCount: 0,
          resetGeneration: 3,
          attempts: 0,
          lastTriggeredAt: null,
        });
      });

      it('a settle that carries a newer reset generation applies the reset first (the resume and the settle cannot race)', async () => {
        await settleAll([{ ok: false }, { ok: false }, { ok: false }]);
        // The worker saw the re-activation (generation 1) before the handler applied it.
        const result = await settleAll([{ ok: false }], 1);
        expect(result.telemetry).toEqual([{ webhookId: 'whk_1', failureCountBefore: 0, failureCount: 1 }]);
        await queue.resetFailures('whk_1', 1); // the handler's own reset, late: nothing to do
        expect(await telemetryOf()).toMatchObject({ failureCount: 1, resetGeneration: 1 });
        // An attempt settled by a worker still on the old generation counts on.
        await settleAll([{ ok: false }], 0);
        expect(await telemetryOf()).toMatchObject({ failureCount: 2, resetGeneration: 1 });
      });

      it('the fan-out applies resets with its checkpoint, and removing a route drops the telemetry', async () => {
        await settleAll([{ ok: false }, { ok: false }, { ok: false, webhookId: 'whk_2' }]);
        await queue.commitFanout('owner-a', {
          checkpoint: 2,
          upsertRoutes: [],
          removeRoutes: [],
          resetFailures: [{ webhookId: 'whk_1', generation: 1 }],
          deliveries: [],
        });
        expect(await telemetryOf()).toMatchObject({ failureCount: 0, resetGeneration: 1 });
        await queue.commitFanout('owner-a', {
          checkpoint: 3,
          upsertRoutes: [],
          removeRoutes: ['whk_2'],
          deliveries: [],
        });
        expect((await queue.loadTelemetry(['whk_1', 'whk_2'])).map((t) => t.webhookId)).toEqual(['whk_1']);
      });

      it('settles many attempts of one subscription with one row, whatever their number', async () => {
        const outcomes = Array.from({ length: 300 }, (_, i) => ({ ok: i % 7 === 0, at: T0 + i }));
        const result = await settleAll(outcomes);
        expect(result.settled.every(Boolean)).toBe(true);
        const trailing = 299 - 294; // the last success is attempt 294
        expect(result.telemetry).toEqual([{ webhookId: 'whk_1', failureCountBefore: 0, failureCount: trailing }]);
        expect(await telemetryOf()).toMatchObject({ attempts: 300, failures: 300 - 43, lastAttemptAt: T0 + 299 });
      });
    });

    describe('attempt log and recovery', () => {
      it('pages the attempt log newest first and keeps test attempts', async () => {
        const d = { id: 'msg_test', webhookId: 'whk_log' };
        for (let n = 1; n <= 5; n++)
          await queue.recordAttempt(attemptOf(d, n, { responseBody: null, error: 'Connection refused' }));
        await queue.recordAttempt(attemptOf({ id: 'msg_x', webhookId: 'whk_other' }, 1));
        const first = await queue.listAttempts('whk_log', { limit: 2 });
        expect(first.map((a) => a.attempt)).toEqual([5, 4]);
        const rest = await queue.listAttempts('whk_log', { beforeSeq: first[1].seq, limit: 10 });
        expect(rest.map((a) => a.attempt)).toEqual([3, 2, 1]);
        expect(rest[0]).toMatchObject({ responseBody: null, error: 'Connection refused', succeeded: false });
      });

      it('counts a subscription’s attempts per period since a time, succeeded and failed, oldest first', async () => {
        const HOUR = 3_600_000;
        const base = Math.floor(T0 / HOUR) * HOUR;
        const at = (hour: number, minute: number) => base + hour * HOUR + minute * 60_000;
        const log = [
          [at(0, 5), true],
          [at(1, 0), true],
          [at(1, 30), false],
          [at(1, 59), false],
          [at(3, 10), true],
        ] as const;
        for (const [i, [attemptedAt, succeeded]] of log.entries()) {
          await queue.recordAttempt(
            attemptOf({ id: `msg_c${i}`, webhookId: 'whk_chart' }, 1, { attemptedAt, succeeded }),
          );
        }
        await queue.recordAttempt(attemptOf({ id: 'msg_c9', webhookId: 'whk_other' }, 1, { attemptedAt: at(1, 1) }));

        expect(await queue.countAttempts('whk_chart', { since: at(1, 0), bucketMs: HOUR })).toEqual([
          { bucket: at(1, 0), succeeded: 1, failed: 2 },
          { bucket: at(3, 0), succeeded: 1, failed: 0 },
        ]);
        const days = await queue.countAttempts('whk_chart', { since: 0, bucketMs: 24 * HOUR });
        expect(days.reduce((n, d) => n + d.succeeded + d.failed, 0)).toBe(5);
        expect(days.every((d) => d.bucket % (24 * HOUR) === 0)).toBe(true);
        expect(await queue.countAttempts('whk_none', { since: 0, bucketMs: HOUR })).toEqual([]);
      });

      it('counts every subscription’s attempts per period since a time, oldest first', async () => {
        const HOUR = 3_600_000;
        const base = Math.floor(T0 / HOUR) * HOUR;
        const log = [
          ['whk_a', base - 1, true],
          ['whk_a', base + 5, true],
          ['whk_b', base + 10, false],
          ['whk_b', base + HOUR + 1, false],
          ['whk_c', base + HOUR + 2, true],
        ] as const;
        for (const [i, [webhookId, attemptedAt, succeeded]] of log.entries()) {
          await queue.recordAttempt(attemptOf({ id: `msg_all${i}`, webhookId }, 1, { attemptedAt, succeeded }));
        }
        expect(await queue.countAllAttempts({ since: base, bucketMs: HOUR })).toEqual([
          { bucket: base, succeeded: 1, failed: 1 },
          { bucket: base + HOUR, succeeded: 1, failed: 1 },
        ]);
        expect(await queue.countAllAttempts({ since: base + 2 * HOUR, bucketMs: HOUR })).toEqual([]);
      });

      it('counts the backlog: pending deliveries never attempted, and those waiting for a retry', async () => {
        expect(await queue.deliveryBacklog()).toEqual({ pending: 0, retrying: 0 });
        const retried = delivery();
        const done = delivery();
        await enqueue(retried, done, delivery({ nextAttemptAt: T0 + 60_000 }), delivery({ webhookId: 'whk_2' }));
        for (const claim of await queue.claimDue('w', T0, 10, 1_000)) {
          if (claim.id === retried.id)
            await queue.settle(claim, attemptOf(claim, 1), { status: 'retry', nextAttemptAt: T0 + 5_000 });
          else if (claim.id === done.id)
            await queue.settle(claim, attemptOf(claim, 1, { succeeded: true }), { status: 'succeeded' });
          else await queue.release(claim);
        }
        expect(await queue.deliveryBacklog()).toEqual({ pending: 2, retrying: 1 });
      });

      it('lists the paused and the failing subscriptions, most failures first, up to a limit', async () => {
        expect(await queue.acquireFanout('a', T0, 10_000)).not.toBeNull();
        const route = (webhookId: string, workspaceId: string, active: boolean) => ({
          webhookId,
          workspaceId,
          eventTypes: ['project.created'],
          active,
        });
        const fine = delivery({ webhookId: 'whk_fine', workspaceId: 'ws_1' });
        const failing = delivery({ webhookId: 'whk_failing', workspaceId: 'ws_2' });
        const worst = delivery({ webhookId: 'whk_worst', workspaceId: 'ws_3' });
        await queue.commitFanout('a', {
          checkpoint: 1,
          upsertRoutes: [
            route('whk_fine', 'ws_1', true),
            route('whk_failing', 'ws_2', true),
            route('whk_worst', 'ws_3', true),
            route('whk_paused', 'ws_1', false),
          ],
          removeRoutes: [],
          deliveries: [fine, failing, worst],
        });
        // whk_worst fails three times in a row, whk_failing once, whk_fine succeeds.
        for (let n = 1; n <= 3; n++) {
          for (const claim of await queue.claimDue('w', T0 + n * 10_000, 10, 1_000)) {
            const fails = claim.id === worst.id || (claim.id === failing.id && n === 1);
            if (!fails && claim.id !== fine.id) {
              await queue.release(claim);
              continue;
            }
            await queue.settleMany([
              {
                claim,
                attempt: attemptOf(claim, n, { succeeded: !fails, responseStatus: fails ? 500 : 200 }),
                settlement: fails ? { status: 'retry', nextAttemptAt: T0 } : { status: 'succeeded' },
              },
            ]);
          }
        }
        const troubled = await queue.troubledSubscriptions(10);
        expect(troubled.map((s) => [s.webhookId, s.workspaceId, s.active, s.failureCount])).toEqual([
          ['whk_worst', 'ws_3', true, 3],
          ['whk_failing', 'ws_2', true, 1],
          ['whk_paused', 'ws_1', false, 0],
        ]);
        expect(troubled[0]).toMatchObject({ lastAttemptAt: T0 + 3, lastResponseStatus: 500 });
        expect((await queue.troubledSubscriptions(1)).map((s) => s.webhookId)).toEqual(['whk_worst']);
      });

      it('re-queues failed deliveries created in the window, due now, in a new round', async () => {
        const old = delivery({ createdAt: T0 - 10_000 });
        const inWindow = delivery({ createdAt: T0 + 10 });
        const otherHook = delivery({ createdAt: T0 + 10, webhookId: 'whk_2' });
        const succeeded = delivery({ createdAt: T0 + 10 });
        await enqueue(old, inWindow, otherHook, succeeded);
        for (const claim of await queue.claimDue('w', T0, 10, 1_000)) {
          const ok = claim.id === succeeded.id;
          await queue.settle(
            claim,
            attemptOf(claim, 1, { succeeded: ok }),
            ok ? { status: 'succeeded' } : { status: 'failed', reason: 'Retries exhausted' },
          );
        }
        expect(await queue.requeueFailed('whk_1', { since: T0, until: T0 + 1_000, now: T0 + 2_000 })).toBe(1);
        expect(await queue.nextDueAt()).toBe(T0 + 2_000);
        const [again] = await queue.claimDue('w', T0 + 2_000, 10, 1_000);
        expect(again).toMatchObject({ id: inWindow.id, attempts: 1, roundStart: 1 });
        expect(await queue.requeueFailed('whk_1', { since: T0, until: T0 + 1_000, now: T0 + 2_000 })).toBe(0);
      });

      it('re-queues one settled delivery by its id, keeping the id, in a new round', async () => {
        const failed = delivery({ createdAt: T0 });
        const succeeded = delivery({ createdAt: T0 });
        const pending = delivery({ createdAt: T0, nextAttemptAt: T0 + 100_000 });
        await enqueue(failed, succeeded, pending);
        for (const claim of await queue.claimDue('w', T0, 10, 1_000)) {
          const ok = claim.id === succeeded.id;
          await queue.settle(
            claim,
            attemptOf(claim, 1, { succeeded: ok }),
            ok ? { status: 'succeeded' } : { status: 'failed', reason: 'Retries exhausted' },
          );
        }
        expect(await queue.requeueDelivery('whk_2', failed.id, T0 + 2_000)).toBe('not_found');
        expect(await queue.requeueDelivery('whk_1', 'msg_missing', T0 + 2_000)).toBe('not_found');
        expect(await queue.requeueDelivery('whk_1', pending.id, T0 + 2_000)).toBe('already_queued');
        expect(await queue.requeueDelivery('whk_1', failed.id, T0 + 2_000)).toBe('queued');
        expect(await queue.requeueDelivery('whk_1', failed.id, T0 + 2_000)).toBe('already_queued');
        expect(await queue.requeueDelivery('whk_1', succeeded.id, T0 + 2_000)).toBe('queued');
        const again = await queue.claimDue('w', T0 + 2_000, 10, 1_000);
        expect(again.map((c) => c.id).sort()).toEqual([failed.id, succeeded.id].sort());
        expect(again.find((c) => c.id === failed.id)).toMatchObject({
          attempts: 1,
          roundStart: 1,
          payload: failed.payload,
        });
      });

      it('prunes settled deliveries and old attempts, never pending ones', async () => {
        const done = delivery();
        const pending = delivery({ nextAttemptAt: T0 + 100_000 });
        await enqueue(done, pending);
        const [claim] = await queue.claimDue('w', T0, 1, 1_000);
        await queue.settle(claim, attemptOf(done, 1, { succeeded: true }), { status: 'succeeded' });
        await queue.prune(T0 + 50_000);
        expect(await queue.listAttempts(done.webhookId, { limit: 10 })).toEqual([]);
        expect(await queue.nextDueAt()).toBe(T0 + 100_000);
        expect(await queue.requeueFailed('whk_1', { since: 0, until: T0 + 1e9, now: T0 })).toBe(0);
      });
    });
  });
}
