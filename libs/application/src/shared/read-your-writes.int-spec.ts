import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decider, DomainEvent, OPERATOR } from '@app/domain';
import { SqliteEventStore, SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { ReadModelStore } from '../ports/read-model.port';
import { ReadScope } from '../ports/read-your-writes.port';
import { CheckpointPoller } from '../projections/checkpoint-poller';
import { CommandContext, ReadConsistency } from './command-context';
import { EventSourcedRepository } from './event-sourced-repository';
import { servingProjections } from './read-your-writes';

const counter: Decider<number, 'add', DomainEvent> = {
  initialState: () => 0,
  evolve: (n) => n + 1,
  decide: () => [{ type: 'counter.added', data: {} }],
};

describe('Read-your-writes results and causation ids (repository, checkpoint poller)', () => {
  let dir: string;
  let events: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-ryw-'));
    events = new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline' });
  });
  afterEach(async () => {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const context = (consistency?: ReadConsistency): CommandContext => ({
    actor: OPERATOR,
    workspaceId: 'ws_1',
    requestId: 'req_1',
    causationId: 'cmd_1',
    consistency,
  });

  it('waits for the projections serving the stream, reports what it saw, and records the causation', async () => {
    const asked: [number, ReadScope | undefined][] = [];
    let answer = true;
    const repository = new EventSourcedRepository(
      events,
      { now: () => 5 },
      {
        waitFor: async (position, scope) => {
          asked.push([position, scope]);
          return answer;
        },
      },
    );
    const consistency: ReadConsistency = { pending: [] };
    const shown = await repository.execute(counter, 'project-p1', 'add', context(consistency));
    expect(shown.visible).toBe(true);
    expect(asked).toEqual([[shown.position, { projections: ['projects'], streamId: 'project-p1' }]]);
    expect(consistency.pending).toEqual([]);

    answer = false;
    const late = await repository.execute(counter, 'job-type-t1', 'add', context(consistency));
    expect(late.visible).toBe(false);
    expect(asked[1][1]).toEqual({ projections: ['job_types'], streamId: 'job-type-t1' });
    expect(consistency.pending).toEqual(['job_types']);

    // Not waited for on purpose: not known to be shown, and nothing to report to a client.
    const unwaited = await repository.execute(counter, 'workspace-w1', 'add', context(consistency), {
      waitForReadModels: false,
    });
    expect(unwaited.visible).toBe(false);
    expect(asked).toHaveLength(2);
    expect(consistency.pending).toEqual(['job_types']);

    const [recorded] = await events.readStream('project-p1');
    expect(recorded.metadata).toMatchObject({ requestId: 'req_1', correlationId: 'req_1', causationId: 'cmd_1' });
  });

  it('declares the serving projections once per stream category (job types before jobs)', () => {
    expect(servingProjections('job-j1')).toEqual(['jobs']);
    expect(servingProjections('job-type-t1')).toEqual(['job_types']);
    expect(servingProjections('webhook-h1')).toEqual(['webhooks']);
    expect(servingProjections('workspace-w1')).toEqual(['workspaces']);
    expect(servingProjections('other-x')).toBeUndefined();
  });

  it('checkpoint poller: the named projections only, false after the timeout or for a parked stream', async () => {
    const read = new SqliteReadModelStore(join(dir, 'read-models.db'));
    const poller = new CheckpointPoller(read, ['projects', 'audit'], { intervalMs: 2, timeoutMs: 80 });
    await read.apply([], { projects: 10, audit: 3 });
    expect(await poller.waitFor(10, { projections: ['projects'], streamId: 'project-p1' })).toBe(true);
    // Every projection by default: the audit feed is behind.
    expect(await poller.waitFor(10)).toBe(false);
    const later = poller.waitFor(12, { projections: ['projects'] });
    await read.apply([], { projects: 12 });
    expect(await later).toBe(true);

    await read.apply(
      [],
      { projects: 13 },
      {
        park: [
          {
            projection: 'projects',
            position: 13,
            eventId: 'e13',
            streamId: 'project-p2',
            eventType: 'project.updated',
            error: 'x',
            firstFailedAt: 1,
            lastFailedAt: 1,
            attempts: 1,
          },
        ],
      },
    );
    expect(await poller.waitFor(13, { projections: ['projects'], streamId: 'project-p2' })).toBe(false);
    expect(await poller.waitFor(13, { projections: ['audit'], streamId: 'project-p2' })).toBe(false); // audit is behind
    await read.apply([], { audit: 13 });
    expect(await poller.waitFor(13, { projections: ['audit'], streamId: 'project-p2' })).toBe(true);
    expect(await poller.waitFor(13, { projections: ['projects'], streamId: 'project-p1' })).toBe(true);
    await read.close();
  });

  it('checkpoint poller: one poll loop serves every waiting write, and stops when nobody waits', async () => {
    const read = new SqliteReadModelStore(join(dir, 'read-models-shared.db'));
    let reads = 0;
    const getCheckpoints = read.getCheckpoints.bind(read);
    read.getCheckpoints = () => {
      reads++;
      return getCheckpoints();
    };
    const poller = new CheckpointPoller(read, ['projects', 'audit'], { intervalMs: 5, timeoutMs: 2000 });
    await read.apply([], { projects: 1, audit: 1 });
    const waits = Array.from({ length: 100 }, (_, i) => poller.waitFor(2 + (i % 3), { projections: ['projects'] }));
    await new Promise((r) => setTimeout(r, 60));
    await read.apply([], { projects: 3 });
    await new Promise((r) => setTimeout(r, 30));
    await read.apply([], { projects: 4 });
    expect(await Promise.all(waits)).toEqual(Array.from({ length: 100 }, () => true));
    // About one read per interval for all of them (a poll per waiter would be 100 per interval).
    expect(reads).toBe(poller.polls);
    expect(reads).toBeLessThan(60);
    const after = reads;
    await new Promise((r) => setTimeout(r, 30));
    expect(reads).toBe(after); // idle: nobody waits, nothing is read
    // A timeout answers that waiter false; the others are untouched.
    const late = poller.waitFor(99, { projections: ['audit'] });
    const soon = poller.waitFor(5, { projections: ['projects'] });
    await read.apply([], { projects: 5 });
    expect(await soon).toBe(true);
    const quick = new CheckpointPoller(read, ['projects', 'audit'], { intervalMs: 5, timeoutMs: 50 });
    expect(await quick.waitFor(99)).toBe(false);
    poller.stop();
    expect(await late).toBe(false);
    await read.close();
  });

  it('checkpoint poller: reads on a change of the watched checkpoints, and polls again when the watch dies', async () => {
    const read: ReadModelStore = new SqliteReadModelStore(join(dir, 'read-models-watched.db'));
    let reads = 0;
    const getCheckpoints = read.getCheckpoints.bind(read);
    read.getCheckpoints = () => {
      reads++;
      return getCheckpoints();
    };
    // Stands in for MongoDB's change stream on the checkpoints collection.
    let watch: { onChange(): void; onError(e: unknown): void } | null = null;
    let opened = 0;
    read.watchCheckpoints = (onChange, onError) => {
      opened++;
      watch = { onChange, onError };
      return { close: async () => undefined };
    };
    const poller = new CheckpointPoller(read, ['projects'], {
      intervalMs: 5,
      timeoutMs: 3000,
      fallbackIntervalMs: 60_000,
      rewatchMs: 60_000,
    });
    const waits = Array.from({ length: 20 }, () => poller.waitFor(2, { projections: ['projects'] }));
    await new Promise((r) => setTimeout(r, 100));
    expect(poller.watching()).toBe(true);
    expect(reads).toBe(1); // one read at the start, then asleep until a checkpoint changes
    await read.apply([], { projects: 2 });
    watch!.onChange();
    expect(await Promise.all(waits)).toEqual(Array.from({ length: 20 }, () => true));
    expect(reads).toBe(2);

    // The watch dies: the loop polls every intervalMs again, and waiters still see the checkpoints.
    const next = poller.waitFor(3, { projections: ['projects'] });
    await new Promise((r) => setTimeout(r, 20));
    watch!.onError(new Error('change stream closed'));
    expect(poller.watching()).toBe(false);
    await read.apply([], { projects: 3 });
    expect(await next).toBe(true);
    expect(opened).toBe(1); // not reopened before rewatchMs
    poller.stop();
    await read.close();
  });
});
