import {
  DomainError,
  jobDecider,
  jobStream,
  OPERATOR,
  PROJECT_CREATION_ABANDONED,
  ProjectCommand,
  projectDecider,
  projectJobsDecider,
  projectJobsStream,
  projectStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { WrongExpectedRevisionError } from '../../ports/event-store.port';
import { ALL_PROJECTORS } from '../../projections/all-projectors';
import { ProjectionEngine } from '../../projections/projection-engine';
import { CommandContext } from '../../shared/command-context';
import { EventSourcedRepository } from '../../shared/event-sourced-repository';
import { DELETED_PROJECTS, SLOTS_HELD_BY_DELETED, SLOTS_PENDING } from './slot-ledger.projector';
import { OneByOneStore, OneByOneWorld, openOneByOneWorld } from './one-by-one-store.spec-helper';
import { SlotReconciler } from './slot-reconciler';

const HOUR = 3600_000;

describe('SlotReconciler: writes that stopped part way on a store without multi-stream transactions', () => {
  let world: OneByOneWorld;
  let store: OneByOneStore;
  let read: SqliteReadModelStore;
  let engine: ProjectionEngine;
  let repository: EventSourcedRepository;
  let now: number;
  const clock = { now: () => now };
  const ws = 'ws_limits';
  const context: CommandContext = { actor: OPERATOR, workspaceId: ws, requestId: 'req', causationId: 'req' };

  beforeEach(async () => {
    now = Date.now();
    world = await openOneByOneWorld(clock);
    ({ store, read, engine, repository } = world);
    await repository.execute(
      workspaceDecider,
      workspaceStream(ws),
      { type: 'CreateWorkspace', id: ws, name: 'Limits', plan: 'enterprise', projectLimit: 2, now },
      context,
    );
  });
  afterEach(() => world.close());

  const createProject = (id: string) => {
    const create: ProjectCommand = {
      type: 'CreateProject',
      id,
      workspaceId: ws,
      name: id,
      description: '',
      status: 'planned',
      startDate: '2030-01-01',
      createdBy: { id: 'operator', email: null, first_name: 'Operator', last_name: null, profile_picture: null },
      now,
    };
    // As CreateProjectHandler does.
    return repository.transact(workspaceStream(ws), context, async (unit) => {
      const project = await unit.decide(projectDecider, projectStream(id), create, { order: 'last' });
      if (project.events.length > 0)
        await unit.decide(
          workspaceDecider,
          workspaceStream(ws),
          { type: 'ReserveProjectSlot', projectId: id },
          { order: 'first' },
        );
    });
  };
  const slots = async () => (await repository.load(workspaceDecider, workspaceStream(ws))).state.projectSlots;
  const settle = async () => {
    if (!(await engine.waitFor(await store.headPosition(), {}, 5_000))) throw new Error('projections behind');
  };

  it('a reservation whose project never appeared: tombstoned, released once, and a late create fails', async () => {
    store.cutAfter(1); // the reservation is written, the project is not
    await expect(createProject('prj_lost')).rejects.toThrow('connection lost');
    await settle();
    expect(await slots()).toBe(1);
    expect(await read.find(SLOTS_PENDING, { limit: 10 })).toHaveLength(1);

    const reconciler = new SlotReconciler(repository, read, clock, { graceMs: 60_000 });
    expect(await reconciler.sweep()).toMatchObject({ abandoned: 0, released: 0, jobsDeleted: 0 }); // too recent to judge
    now += HOUR;
    expect(await reconciler.sweep()).toMatchObject({ abandoned: 1, released: 1, jobsDeleted: 0 });
    await settle();
    expect(await slots()).toBe(0);
    expect(await read.find(SLOTS_PENDING, { limit: 10 })).toHaveLength(0);
    expect(await reconciler.sweep()).toMatchObject({ abandoned: 0, released: 0, jobsDeleted: 0 });

    // The create that was cut off, arriving at last: its stream is taken.
    const late = store.appendToStream(
      projectStream('prj_lost'),
      [repository.envelope({ type: 'project.created', data: {} }, context)],
      {
        expectedRevision: 'no_stream',
      },
    );
    await expect(late).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    // A retry of the request with the same Idempotency-Key (the same id) is told to use a new key.
    await expect(createProject('prj_lost')).rejects.toThrow(PROJECT_CREATION_ABANDONED);
    // Both slots are usable.
    await createProject('prj_a');
    await createProject('prj_b');
    await expect(createProject('prj_c')).rejects.toBeInstanceOf(DomainError);
  });

  it('a delete that stopped after the project went: its jobs deleted and its slot released', async () => {
    await createProject('prj_doomed');
    const job = 'job_left';
    await repository.transact(projectJobsStream('prj_doomed'), context, async (unit) => {
      await unit.decide(
        jobDecider,
        jobStream(job),
        {
          type: 'CreateJob',
          id: job,
          workspaceId: ws,
          projectId: 'prj_doomed',
          input: { name: 'Survey', type: 'wind_turbine', job_pattern: 'one_time', start_date: '2030-01-02' },
          now,
        },
        { order: 'last' },
      );
      await unit.decide(
        projectJobsDecider,
        projectJobsStream('prj_doomed'),
        { type: 'AddJob', workspaceId: ws, projectId: 'prj_doomed', jobId: job },
        { order: 'first' },
      );
    });

    store.cutAfter(1); // project.deleted written; the job's deletion and the release are not
    await expect(
      repository.transact(workspaceStream(ws), context, async (unit) => {
        await unit.decide(
          projectDecider,
          projectStream('prj_doomed'),
          { type: 'DeleteProject', now },
          { order: 'first' },
        );
        const { state: members } = await unit.load(projectJobsDecider, projectJobsStream('prj_doomed'));
        for (const id of members.jobIds)
          await unit.decide(jobDecider, jobStream(id), { type: 'DeleteJob', now }, { order: 'first' });
        await unit.decide(
          workspaceDecider,
          workspaceStream(ws),
          { type: 'ReleaseProjectSlot', projectId: 'prj_doomed' },
          { order: 'last' },
        );
      }),
    ).rejects.toThrow('connection lost');
    await settle();
    expect(await slots()).toBe(1);
    expect((await repository.load(jobDecider, jobStream(job))).state.status).toBe('live');

    now += HOUR;
    const done = await new SlotReconciler(repository, read, clock).sweep();
    expect(done).toMatchObject({ released: 1 });
    expect(done.jobsDeleted).toBeGreaterThanOrEqual(1);
    await settle();
    expect(await slots()).toBe(0);
    expect((await repository.load(jobDecider, jobStream(job))).state.status).toBe('deleted');
    expect(await read.find(SLOTS_HELD_BY_DELETED, { limit: 10 })).toHaveLength(0);
  });

  it('finds nothing to repair after whole writes (the embedded store always writes whole)', async () => {
    await createProject('prj_one');
    await repository.transact(workspaceStream(ws), context, async (unit) => {
      await unit.decide(projectDecider, projectStream('prj_one'), { type: 'DeleteProject', now }, { order: 'first' });
      await unit.decide(
        workspaceDecider,
        workspaceStream(ws),
        { type: 'ReleaseProjectSlot', projectId: 'prj_one' },
        { order: 'last' },
      );
    });
    await settle();
    expect(await read.find(SLOTS_PENDING, { limit: 10 })).toHaveLength(0);
    expect(await read.find(SLOTS_HELD_BY_DELETED, { limit: 10 })).toHaveLength(0);
    expect(await read.find(DELETED_PROJECTS, { limit: 10 })).toHaveLength(1);
    now += HOUR;
    expect(await new SlotReconciler(repository, read, clock).sweep()).toMatchObject({
      abandoned: 0,
      released: 0,
      jobsDeleted: 0,
    });
  });

  const deleteWhole = (id: string) =>
    repository.transact(workspaceStream(ws), context, async (unit) => {
      await unit.decide(projectDecider, projectStream(id), { type: 'DeleteProject', now }, { order: 'first' });
      await unit.decide(
        workspaceDecider,
        workspaceStream(ws),
        { type: 'ReleaseProjectSlot', projectId: id },
        { order: 'last' },
      );
    });

  it('a job created in a project after its deletion is deleted, however long the projector was down', async () => {
    await createProject('prj_gone');
    await deleteWhole('prj_gone');
    await settle();
    await engine.stop(); // the projector is down

    // A job create whose check of the project passed before the deletion was written lands after
    // it: its place in the project's job list first, then the job.
    const job = 'job_late';
    const [added] = projectJobsDecider.decide(
      { type: 'AddJob', workspaceId: ws, projectId: 'prj_gone', jobId: job },
      projectJobsDecider.initialState(),
    );
    const created = jobDecider.decide(
      {
        type: 'CreateJob',
        id: job,
        workspaceId: ws,
        projectId: 'prj_gone',
        input: { name: 'Survey', type: 'wind_turbine', job_pattern: 'one_time', start_date: '2030-01-02' },
        now,
      },
      jobDecider.initialState(),
    );
    await store.appendToStreams([
      {
        streamId: projectJobsStream('prj_gone'),
        events: [repository.envelope(added, context)],
        expectedRevision: 'no_stream',
      },
      {
        streamId: jobStream(job),
        events: created.map((event) => repository.envelope(event, context)),
        expectedRevision: 'no_stream',
      },
    ]);

    now += 6 * HOUR; // far past any window measured from the deletion
    world.engine = engine = new ProjectionEngine(store, read, ALL_PROJECTORS, {
      error: () => undefined,
      warn: () => undefined,
    });
    await engine.start();
    await settle();

    const reconciler = new SlotReconciler(repository, read, clock);
    expect(await reconciler.sweep()).toMatchObject({ jobsDeleted: 1, repairs: { late_job: { done: 1, failed: 0 } } });
    expect((await repository.load(jobDecider, jobStream(job))).state.status).toBe('deleted');
    expect(await reconciler.sweep()).toMatchObject({ jobsDeleted: 0 });
  });

  it('one repair that fails does not stop the others; it is counted, and done by a later sweep', async () => {
    for (const id of ['prj_a', 'prj_b']) {
      await slots(); // what the cut write left, read (a stale held state would conflict before the cut)
      store.cutAfter(1);
      await expect(createProject(id)).rejects.toThrow('connection lost');
    }
    await settle();
    now += HOUR;
    const warnings: string[] = [];
    const reconciler = new SlotReconciler(repository, read, clock, { logger: { warn: (m) => warnings.push(m) } });

    store.failOn(projectStream('prj_a')); // the store refuses the first repair's write
    expect(await reconciler.sweep()).toMatchObject({
      released: 1,
      repairs: { abandoned_creation: { done: 1, failed: 1 } },
    });
    expect(warnings).toEqual([expect.stringContaining('abandoned_creation of project prj_a failed')]);
    expect((await repository.load(projectDecider, projectStream('prj_b'))).state.status).toBe('abandoned');

    store.failOn(projectStream('prj_a'), false);
    await settle();
    expect(await reconciler.sweep()).toMatchObject({ abandoned: 1, released: 1 });
    await settle();
    expect(await slots()).toBe(0);
    expect(await read.find(SLOTS_PENDING, { limit: 10 })).toEqual([]);
  });

  it('ledger documents whose repair decides nothing do not hold the others up', async () => {
    await createProject('prj_live');
    // A reservation recorded again for a project that has one, written to the store directly (the
    // workspace would decide nothing): its ledger document stays, and nothing is to be done for it.
    await store.appendToStream(
      workspaceStream(ws),
      [
        repository.envelope(
          { type: 'workspace.project_slot_reserved', data: { workspace_id: ws, project_id: 'prj_live' } },
          context,
        ),
      ],
      { expectedRevision: 'any' },
    );
    await slots();
    store.cutAfter(1);
    await expect(createProject('prj_lost')).rejects.toThrow('connection lost');
    await settle();
    expect(await read.find(SLOTS_PENDING, { limit: 10 })).toHaveLength(2);
    now += HOUR;

    const reconciler = new SlotReconciler(repository, read, clock, { batch: 1 });
    let released = 0;
    for (let sweep = 0; sweep < 3; sweep++) released += (await reconciler.sweep()).released;

    expect(released).toBe(1);
    expect((await repository.load(projectDecider, projectStream('prj_lost'))).state.status).toBe('abandoned');
    await settle();
    expect(await slots()).toBe(1);
  });
});
