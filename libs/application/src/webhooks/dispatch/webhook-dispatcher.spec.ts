import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  OPERATOR,
  projectDecider,
  projectStream,
  webhookDecider,
  WebhookEvent,
  WebhookState,
  webhookStream,
} from '@app/domain';
import { SqliteEventStore, SqliteWebhookQueue } from '@app/infrastructure/sqlite';
import { systemClock } from '../../shared/system-clock';
import { WebhookRequest, WebhookResponse, WebhookTransport } from '../../ports/webhook-transport.port';
import { WebhookSecretBox } from '../../ports/webhook-secrets.port';
import { CommandContext } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { generateWebhookSecret } from '../webhook-signature';
import { WebhookSettings } from '../webhook-settings';
import { DeliveryWorker } from './delivery-worker';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookSender } from './webhook-sender';
import { ProcessHost } from '../../ports/process-host.port';

/**
 * The dispatcher end to end inside one process: the real SQLite event store and queue, a fake
 * transport standing in for the receivers. (Real HTTPS, signatures and restarts:
 * test/e2e/webhooks/delivery*.e2e-spec.ts.)
 */
describe('Webhook dispatcher', () => {
  let dir: string;
  let events: SqliteEventStore;
  let queue: SqliteWebhookQueue;
  let repository: EventSourcedRepository;
  let sent: { request: WebhookRequest; at: number }[];
  let answer: (request: WebhookRequest) => number;
  let opened: number;
  const running: { stop(): Promise<void> }[] = [];
  const silent = { error: () => undefined, warn: () => undefined };
  const ctx: CommandContext = { actor: OPERATOR, workspaceId: 'ws_1', requestId: 'test', causationId: 'test' };

  const transport: WebhookTransport = {
    async send(request) {
      sent.push({ request, at: Date.now() });
      await new Promise((r) => setTimeout(r, 2));
      const status = answer(request);
      return { kind: 'response', status, retryAfter: null, body: '', durationMs: 2 } satisfies WebhookResponse;
    },
    close: async () => undefined,
  };
  const box: WebhookSecretBox = {
    seal: (secret) => `sealed:${secret}`,
    open: (sealed) => {
      opened++;
      return sealed.slice('sealed:'.length);
    },
  };
  const settingsWith = (overrides: Partial<WebhookSettings> = {}): WebhookSettings => ({
    retryDelaysMs: [0, 50, 50, 50, 50],
    pauseAfterFailures: 3,
    allowPrivateTargets: true,
    requestTimeoutMs: 2_000,
    jitterRatio: 0,
    concurrency: 64,
    retentionMs: 60_000,
    ...overrides,
  });
  // One process: its own owner id, and no other holder ever judged gone (leases run out instead).
  let owners = 0;
  const thisProcess: ProcessHost = { newOwnerId: () => `test:${++owners}`, isDeadOwner: () => false };
  const dispatcher = (settings: WebhookSettings) => {
    const sender = new WebhookSender(transport, box, settings, systemClock);
    const started = new WebhookDispatcher(
      events,
      queue,
      repository,
      sender,
      settings,
      systemClock,
      silent,
      thisProcess,
      {
        pollIntervalMs: 60_000, // no poll in these tests: whatever happens, something woke the worker
      },
    );
    running.push(started);
    return started;
  };

  const createWebhook = async (id = 'whk_1') => {
    await repository.execute(
      webhookDecider,
      webhookStream(id),
      {
        type: 'CreateWebhook',
        id,
        workspaceId: 'ws_1',
        name: 'Receiver',
        url: 'https://hooks.example/in',
        eventTypes: ['project.created'],
        sealedSecret: box.seal(generateWebhookSecret(), id),
        createdBy: null,
        now: Date.now(),
      },
      ctx,
    );
    return id;
  };
  let projects = 0;
  const createProject = () => {
    const id = `prj_${++projects}`;
    return repository.execute(
      projectDecider,
      projectStream(id),
      {
        type: 'CreateProject',
        id,
        workspaceId: 'ws_1',
        name: `Project ${projects}`,
        description: 'Spillway',
        status: 'planned',
        startDate: '2026-06-01',
        createdBy: { id: 'key_1', email: null, first_name: null, last_name: null, profile_picture: null },
        now: Date.now(),
      },
      ctx,
    );
  };
  const streamOf = async (webhookId: string) =>
    (await events.readStream(webhookStream(webhookId))).map((e) => e as unknown as WebhookEvent);
  const stateOf = async (webhookId: string) =>
    (
      await new EventSourcedRepository(events, systemClock, { waitFor: async () => true }).load<WebhookState>(
        webhookDecider,
        webhookStream(webhookId),
      )
    ).state as Extract<WebhookState, { status: 'live' }>;
  async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wh-dispatch-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline', pollIntervalMs: 60_000 });
    queue = new SqliteWebhookQueue(join(dir, 'webhooks.db'));
    repository = new EventSourcedRepository(events, systemClock, { waitFor: async () => true });
    sent = [];
    answer = () => 204;
    opened = 0;
  });
  afterEach(async () => {
    for (const started of running.splice(0)) await started.stop();
    await queue.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is woken by the fan-out: a new event is delivered at once, not at the next poll', async () => {
    const hooks = dispatcher(settingsWith());
    await hooks.start();
    await createWebhook();
    const committed = Date.now();
    await createProject();
    await until(() => sent.length === 1);
    expect(sent[0].at - committed).toBeLessThan(1_000); // the poll is a minute away
    expect(JSON.parse(sent[0].request.body)).toMatchObject({ type: 'project.created', data: { id: 'prj_1' } });
  });

  it('records the position of batches that queue nothing with a later commit, not a transaction each', async () => {
    const commits = jest.spyOn(queue, 'commitFanout');
    const hooks = dispatcher(settingsWith());
    await hooks.start();
    for (let i = 0; i < 5; i++) await createProject(); // no subscription: nothing to queue
    const head = await events.headPosition();
    await new Promise((r) => setTimeout(r, 300));
    expect(commits).not.toHaveBeenCalled();
    await hooks.stop(); // the position is recorded before the lease is given back
    expect(commits).toHaveBeenCalledTimes(1);
    expect(commits.mock.calls[0][1]).toEqual({ checkpoint: head, upsertRoutes: [], removeRoutes: [], deliveries: [] });
    expect(await queue.acquireFanout('next', Date.now(), 1_000)).toEqual({ checkpoint: head });
  });

  it('keeps the telemetry in the queue: no event per attempt, last_triggered_at the latest attempt', async () => {
    const hooks = dispatcher(settingsWith());
    await hooks.start();
    const webhookId = await createWebhook();
    await Promise.all(Array.from({ length: 30 }, () => createProject()));
    await until(() => sent.length === 30);
    await hooks.stop();

    const log = await queue.listAttempts(webhookId, { limit: 100 });
    expect(log).toHaveLength(30);
    expect((await streamOf(webhookId)).map((e) => e.type)).toEqual(['webhook.created']);
    const [telemetry] = await queue.loadTelemetry([webhookId]);
    expect(telemetry).toMatchObject({ failureCount: 0, attempts: 30, failures: 0, lastResponseStatus: 204 });
    expect(telemetry.lastTriggeredAt).toBe(Math.max(...log.map((a) => a.attemptedAt)));
    expect(opened).toBe(1); // the sealed secret was opened once for all 30 signatures
  });

  it('retries on time and pauses at the threshold before the next retry goes out: one event, from the telemetry', async () => {
    answer = () => 500;
    const hooks = dispatcher(settingsWith());
    await hooks.start();
    const webhookId = await createWebhook();
    const started = Date.now();
    await createProject();
    await until(async () => (await stateOf(webhookId)).fields.status === 'paused');
    expect(Date.now() - started).toBeLessThan(2_000); // retries 50 ms apart were not left to the poll
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toHaveLength(3);
    expect((await queue.loadTelemetry([webhookId]))[0]).toMatchObject({
      failureCount: 3,
      attempts: 3,
      failures: 3,
      lastResponseStatus: 500,
    });
    const stream = await streamOf(webhookId);
    expect(stream.map((e) => e.type)).toEqual(['webhook.created', 'webhook.auto_paused']);
    expect(stream[1]).toMatchObject({ data: { reason: 'consecutive_failures', failure_count: 3 } });
  });

  it('pauses at once on 410 Gone', async () => {
    answer = () => 410;
    const hooks = dispatcher(settingsWith());
    await hooks.start();
    const webhookId = await createWebhook();
    await createProject();
    await until(async () => (await stateOf(webhookId)).fields.status === 'paused');
    expect((await streamOf(webhookId)).at(-1)).toMatchObject({
      type: 'webhook.auto_paused',
      data: { reason: 'gone', failure_count: 1 },
    });
  });

  /** Deliveries put straight in the queue (no events behind them), due now. */
  const enqueueDirect = async (webhookId: string, count: number, prefix = 'msg') => {
    const now = Date.now();
    await queue.acquireFanout('test', now, 60_000);
    const ids = Array.from({ length: count }, (_, i) => `${prefix}_${String(i).padStart(5, '0')}`);
    await queue.commitFanout('test', {
      checkpoint: 1,
      upsertRoutes: [],
      removeRoutes: [],
      deliveries: ids.map((id) => ({
        id,
        webhookId,
        workspaceId: 'ws_1',
        eventId: id,
        eventType: 'project.created',
        payload: '{}',
        createdAt: now,
        nextAttemptAt: now,
      })),
    });
    await queue.releaseFanout('test');
    return ids;
  };
  const worker = (
    q: SqliteWebhookQueue,
    settings: WebhookSettings,
    name: string,
    isDeadOwner?: (owner: string) => boolean,
  ) => {
    const started = new DeliveryWorker(
      q,
      new EventSourcedRepository(events, systemClock, { waitFor: async () => true }),
      new WebhookSender(transport, box, settings, systemClock),
      settings,
      systemClock,
      name,
      { leaseMs: 60_000, pollIntervalMs: 20, isDeadOwner },
      silent,
    );
    running.push(started);
    return started;
  };

  it("attempts at once what a dead worker held claimed, rather than waiting out its lease; a live worker's claims stay its own", async () => {
    const webhookId = await createWebhook();
    const ids = await enqueueDirect(webhookId, 3);
    const now = Date.now();
    const dead = await queue.claimDue('gone:1', now, 2, 60_000); // a process killed in the middle of attempts
    const [live] = await queue.claimDue('busy:1', now, 1, 60_000);
    expect([...dead, live].map((c) => c.id).sort()).toEqual(ids);
    worker(queue, settingsWith(), 'restarted', (owner) => owner.startsWith('gone:')).start();
    await until(() => sent.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(sent.map((s) => s.request.headers['webhook-id']).sort()).toEqual(dead.map((c) => c.id).sort());
    expect(await queue.claimOwners(Date.now())).toEqual(['busy:1']);
    expect(sent.every((s) => s.at - now < 1_000)).toBe(true); // the dead claims' lease had 59 s to run
  });

  it('1,000 attempts leave the webhook stream with O(1) events: created, then the one pause', async () => {
    // Failures come in runs shorter than the threshold, then the receiver breaks for good.
    let n = 0;
    answer = () => (++n <= 1_000 ? (n % 4 === 0 ? 204 : 500) : 500);
    const settings = settingsWith({ retryDelaysMs: [0], pauseAfterFailures: 5, concurrency: 1 });
    const webhookId = await createWebhook();
    await enqueueDirect(webhookId, 1_005);
    const started = worker(queue, settings, 'worker-1k');
    started.start();
    await until(async () => (await stateOf(webhookId)).fields.status === 'paused', 60_000);
    await started.stop();
    const stream = await streamOf(webhookId);
    expect(stream.map((e) => e.type)).toEqual(['webhook.created', 'webhook.auto_paused']);
    expect(stream[1]).toMatchObject({ data: { reason: 'consecutive_failures', failure_count: 5 } });
    const [telemetry] = await queue.loadTelemetry([webhookId]);
    expect(telemetry).toMatchObject({ attempts: 1_005, failures: 755, failureCount: 5 });
  }, 90_000);

  it('two processes settling failures at once record one pause', async () => {
    answer = () => 500;
    const webhookId = await createWebhook();
    await enqueueDirect(webhookId, 40);
    const settings = settingsWith({ retryDelaysMs: [0], pauseAfterFailures: 3, concurrency: 16 });
    const second = new SqliteWebhookQueue(join(dir, 'webhooks.db'));
    try {
      const workers = [worker(queue, settings, 'worker-a'), worker(second, settings, 'worker-b')];
      workers.forEach((w) => w.start());
      await until(async () => (await stateOf(webhookId)).fields.status === 'paused');
      await new Promise((r) => setTimeout(r, 200));
      for (const w of running.splice(running.length - 2)) await w.stop();
      expect((await streamOf(webhookId)).filter((e) => e.type === 'webhook.auto_paused')).toHaveLength(1);
      expect((await queue.loadTelemetry([webhookId]))[0].failureCount).toBe(
        (await queue.loadTelemetry([webhookId]))[0].attempts,
      );
    } finally {
      await second.close();
    }
  });

  it('a re-activation whose reset never reached the queue (its process died) still resets the count', async () => {
    answer = () => 500;
    const webhookId = await createWebhook();
    await enqueueDirect(webhookId, 3, 'first');
    const settings = settingsWith({ retryDelaysMs: [0], pauseAfterFailures: 3, concurrency: 4 });
    const w1 = worker(queue, settings, 'worker-1');
    w1.start();
    await until(async () => (await stateOf(webhookId)).fields.status === 'paused');
    await w1.stop();
    // The re-activation is on the stream, but queue.resetFailures never ran.
    await repository.execute(
      webhookDecider,
      webhookStream(webhookId),
      { type: 'UpdateWebhook', changes: { status: 'active' }, now: Date.now(), failureCount: 3 },
      ctx,
    );
    expect((await queue.loadTelemetry([webhookId]))[0].failureCount).toBe(3);
    await enqueueDirect(webhookId, 1, 'second');
    const w2 = worker(queue, settings, 'worker-2');
    w2.start();
    await until(async () => (await queue.loadTelemetry([webhookId]))[0].attempts === 4);
    await w2.stop();
    // The worker carried the new generation: the count restarted at 0, so no pause at 4.
    expect((await queue.loadTelemetry([webhookId]))[0]).toMatchObject({ failureCount: 1, resetGeneration: 1 });
    expect((await stateOf(webhookId)).fields.status).toBe('active');
  });

  it('two workers on one queue never make the same attempt', async () => {
    const webhookId = await createWebhook();
    await enqueueDirect(webhookId, 200);
    const settings = settingsWith({ concurrency: 16 });
    const second = new SqliteWebhookQueue(join(dir, 'webhooks.db'));
    const workers = [queue, second].map((q, i) => {
      const worker = new DeliveryWorker(
        q,
        new EventSourcedRepository(events, systemClock, { waitFor: async () => true }),
        new WebhookSender(transport, box, settings, systemClock),
        settings,
        systemClock,
        `worker-${i}`,
        { leaseMs: 60_000, pollIntervalMs: 20 },
        silent,
      );
      running.push(worker);
      return worker;
    });
    try {
      workers.forEach((w) => w.start());
      await until(() => sent.length >= 200);
      await new Promise((r) => setTimeout(r, 100));
      const delivered = sent.map((s) => s.request.headers['webhook-id']);
      expect(delivered).toHaveLength(200);
      expect(new Set(delivered).size).toBe(200);
    } finally {
      for (const worker of running.splice(running.length - 2)) await worker.stop();
      await second.close();
    }
  });
});
