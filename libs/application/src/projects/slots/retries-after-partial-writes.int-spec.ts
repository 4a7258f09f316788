import {
  Actor,
  jobDecider,
  jobStream,
  PROJECT_NOT_FOUND,
  projectDecider,
  projectJobsDecider,
  projectJobsStream,
  projectStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { ProjectionEngine } from '../../projections/projection-engine';
import { CommandContext } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { timeOrderedIds } from '../../shared/time-ordered-ids';
import { CreateProjectCommand } from '../create-project/create-project.command';
import { CreateProjectHandler } from '../create-project/create-project.handler';
import { DeleteProjectCommand } from '../delete-project/delete-project.command';
import { DeleteProjectHandler } from '../delete-project/delete-project.handler';
import { OneByOneStore, OneByOneWorld, openOneByOneWorld } from './one-by-one-store.spec-helper';
import { SLOTS_HELD_BY_DELETED, SLOTS_PENDING } from './slot-ledger.projector';
import { SlotReconciler } from './slot-reconciler';

const HOUR = 3600_000;

/**
 * Requests retried after their write stopped part way on a store without multi-stream
 * transactions (EventStoreDB 24): by the client (the same Idempotency-Key, after an error) or by
 * the repository (a conflict on a later append of the write). The retry must finish what the
 * first run started, never do it twice: one slot per project, and a DELETE that succeeds.
 */
describe('retries of creates and deletes that stopped part way, on a store without multi-stream transactions', () => {
  let world: OneByOneWorld;
  let store: OneByOneStore;
  let read: SqliteReadModelStore;
  let engine: ProjectionEngine;
  let repository: EventSourcedRepository;
  let now: number;
  const clock = { now: () => now };
  const ws = 'ws_retries';
  const actor: Actor = { type: 'api_key', id: 'key_1', name: 'Spec key' };
  const request = (idempotencyKey?: string): CommandContext => ({
    actor,
    workspaceId: ws,
    requestId: `req_${timeOrderedIds.next('r')}`,
    causationId: 'req',
    idempotencyKey,
  });

  beforeEach(async () => {
    now = Date.now();
    world = await openOneByOneWorld(clock);
    ({ store, read, engine, repository } = world);
    await repository.execute(
      workspaceDecider,
      workspaceStream(ws),
      { type: 'CreateWorkspace', id: ws, name: 'Retries', plan: 'pro', projectLimit: 10, now },
      request(),
    );
  });
  afterEach(() => world.close());

  const create = (idempotencyKey: string) =>
    new CreateProjectHandler(repository, clock, timeOrderedIds).execute(
      new CreateProjectCommand(request(idempotencyKey), {
        name: `Project ${idempotencyKey}`,
        description: '',
        status: 'planned',
        start_date: '2030-01-01',
      }),
    );
  const remove = (projectId: string, expectedRevision?: number) =>
    new DeleteProjectHandler(repository, clock, read).execute(
      new DeleteProjectCommand(request(), projectId, expectedRevision),
    );
  const workspace = async () => (await repository.load(workspaceDecider, workspaceStream(ws))).state;
  const project = async (id: string) => (await repository.load(projectDecider, projectStream(id))).state;
  const settle = async () => {
    if (!(await engine.waitFor(await store.headPosition(), {}, 5_000))) throw new Error('projections behind');
  };
  /** An hour on, the reconciler has nothing left to repair, and its ledger is empty. */
  const nothingLeftToRepair = async () => {
    await settle();
    now += HOUR;
    expect(await new SlotReconciler(repository, read, clock).sweep()).toMatchObject({
      abandoned: 0,
      released: 0,
      jobsDeleted: 0,
    });
    expect(await read.find(SLOTS_PENDING, { limit: 10 })).toEqual([]);
    expect(await read.find(SLOTS_HELD_BY_DELETED, { limit: 10 })).toEqual([]);
  };

  describe('a create retried with the same Idempotency-Key takes exactly one slot', () => {
    it('after a cut between the reservation and the project', async () => {
      store.cutAfter(1); // the workspace's reservation is written, the project is not
      await expect(create('key-1')).rejects.toThrow('connection lost');
      expect((await workspace()).projectSlots).toBe(1);

      const { id } = await create('key-1');

      expect((await project(id)).status).toBe('live');
      expect((await workspace()).projectSlots).toBe(1);
      expect((await workspace()).slotHolders.toArray()).toEqual([id]);
      await nothingLeftToRepair();
      expect((await workspace()).projectSlots).toBe(1);
    });

    it('after a batch of creates cut at its k-th project', async () => {
      const keys = ['b-1', 'b-2', 'b-3', 'b-4', 'b-5'];
      // One batch (queued in one turn): the workspace's append with the five reservations, then
      // the five projects; the write stops before the third.
      store.cutAfter(3);
      const first = await Promise.allSettled(keys.map((key) => create(key)));
      expect(first.every((outcome) => outcome.status === 'rejected')).toBe(true);
      expect((await workspace()).projectSlots).toBe(5);

      const ids = (await Promise.all(keys.map((key) => create(key)))).map((created) => created.id);

      for (const id of ids) expect((await project(id)).status).toBe('live');
      expect((await workspace()).projectSlots).toBe(5);
      expect((await workspace()).slotHolders.toArray().sort()).toEqual([...ids].sort());
      await nothingLeftToRepair();
    });

    it("after the repository's own retry of a conflict on the project, the reservation already written", async () => {
      store.conflictAt(1); // the reservation is written; the project's append fails its expected revision

      const { id } = await create('key-c');

      expect((await project(id)).status).toBe('live');
      expect((await workspace()).projectSlots).toBe(1);
      await nothingLeftToRepair();
    });
  });

  describe('a DELETE retried after its cascade stopped part way succeeds and finishes it', () => {
    let projectId: string;
    const job = 'job_1';
    beforeEach(async () => {
      ({ id: projectId } = await create('to-delete'));
      await repository.transact(projectJobsStream(projectId), request(), async (unit) => {
        await unit.decide(
          jobDecider,
          jobStream(job),
          {
            type: 'CreateJob',
            id: job,
            workspaceId: ws,
            projectId,
            input: { name: 'Survey', type: 'wind_turbine', job_pattern: 'one_time', start_date: '2030-01-02' },
            now,
          },
          { order: 'last' },
        );
        await unit.decide(
          projectJobsDecider,
          projectJobsStream(projectId),
          { type: 'AddJob', workspaceId: ws, projectId, jobId: job },
          { order: 'first' },
        );
      });
      await settle();
    });
    const finished = async () => {
      expect((await project(projectId)).status).toBe('deleted');
      expect((await repository.load(jobDecider, jobStream(job))).state.status).toBe('deleted');
      expect((await workspace()).projectSlots).toBe(0);
      await nothingLeftToRepair();
    };

    it("retried by the client after a cut between the project's deletion and the rest", async () => {
      store.cutAfter(1); // project.deleted is written; the job's deletion and the release are not
      await expect(remove(projectId)).rejects.toThrow('connection lost');
      expect((await project(projectId)).status).toBe('deleted');

      await expect(remove(projectId)).resolves.toBeUndefined();

      await finished();
      // Once finished, the project is gone like any other.
      await expect(remove(projectId)).rejects.toThrow(PROJECT_NOT_FOUND);
    });

    it('retried by the repository after a conflict on a later append of the cascade', async () => {
      store.conflictAt(2); // project.deleted and the job's deletion are written; the next append conflicts

      await expect(remove(projectId)).resolves.toBeUndefined();

      await finished();
    });

    it('with If-Match, the retry names the revision the project was deleted at; another is not found', async () => {
      store.cutAfter(1);
      await expect(remove(projectId, 0)).rejects.toThrow('connection lost');

      await expect(remove(projectId, 5)).rejects.toThrow(PROJECT_NOT_FOUND);
      await expect(remove(projectId, 0)).resolves.toBeUndefined();

      await finished();
    });
  });
});
