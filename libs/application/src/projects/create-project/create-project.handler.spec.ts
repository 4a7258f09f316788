import {
  DomainError,
  END_DATE_AFTER_START,
  PROJECT_LIMIT_REACHED,
  projectDecider,
  projectStream,
  workspaceDecider,
  workspaceStream,
} from '@app/domain';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { DeleteProjectHandler } from '../delete-project/delete-project.handler';
import { DeleteProjectCommand } from '../delete-project/delete-project.command';
import { CreateProjectCommand, CreateProjectInput } from './create-project.command';
import { CreateProjectHandler } from './create-project.handler';

const input: CreateProjectInput = {
  name: 'Dam inspection',
  description: 'Spillway',
  status: 'planned',
  start_date: '2026-12-01',
};

describe('CreateProjectHandler (embedded event store)', () => {
  const spec = handlerSpec();
  const create = (extra: Parameters<typeof spec.context>[1] = {}, body: CreateProjectInput = input) =>
    new CreateProjectHandler(spec.repository, spec.clock, spec.ids).execute(
      new CreateProjectCommand(spec.context('ws_1', extra), body),
    );
  const remove = (projectId: string) =>
    new DeleteProjectHandler(spec.repository, spec.clock, spec.read).execute(
      new DeleteProjectCommand(spec.context('ws_1'), projectId),
    );
  const slots = async () => (await spec.repository.load(workspaceDecider, workspaceStream('ws_1'))).state.projectSlots;

  it('records the project and takes a slot of its workspace, reservation first', async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1', 5));

    const { result, events, recorded } = await spec.when(() => create());

    expect(result).toEqual({ id: 'prj_1' });
    expect(events).toEqual([
      {
        streamId: 'workspace-ws_1',
        type: 'workspace.project_slot_reserved',
        data: { workspace_id: 'ws_1', project_id: 'prj_1' },
      },
      {
        streamId: 'project-prj_1',
        type: 'project.created',
        // The project of the body, created now by the spec's API key.
        data: { ...given.projectCreated('prj_1', 'ws_1').data, created: NOW },
      },
    ]);
    // Both events carry the request that caused them.
    expect(recorded.map((e) => e.metadata)).toEqual(
      recorded.map(() => ({
        workspaceId: 'ws_1',
        actor: { type: 'api_key', id: 'key_spec', name: 'Spec bot' },
        requestId: 'req_spec',
        correlationId: 'req_spec',
        causationId: 'req_spec',
        recordedAt: NOW,
      })),
    );
    expect(new Set(recorded.map((e) => e.position)).size).toBe(2);
  });

  it('a create at the project limit is refused and takes nothing', async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1', 2));
    await create();
    await create();

    await spec.whenRefused(() => create(), 'limit_reached', PROJECT_LIMIT_REACHED);
    expect(await slots()).toBe(2);
  });

  it('a deleted project frees its slot for the next create', async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1', 1));
    const { id } = await create();
    await spec.whenRefused(() => create(), 'limit_reached', PROJECT_LIMIT_REACHED);

    await remove(id);
    const { result, events } = await spec.when(() => create());

    expect(result).toEqual({ id: 'prj_3' }); // prj_2 was the refused one
    expect(events.map((e) => [e.streamId, e.type])).toEqual([
      ['workspace-ws_1', 'workspace.project_slot_reserved'],
      ['project-prj_3', 'project.created'],
    ]);
    expect(await slots()).toBe(1);
  });

  it('a retry with the same Idempotency-Key names the same project and takes no second slot, even at the limit', async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1', 1));
    const first = await create({ idempotencyKey: 'idem-1' });

    const { result, events } = await spec.when(() => create({ idempotencyKey: 'idem-1' }));

    expect(result).toEqual(first);
    expect(events).toEqual([]);
    expect(await slots()).toBe(1);
    const { state } = await spec.repository.load(projectDecider, projectStream(first.id));
    expect(state.status).toBe('live');
  });

  it('another Idempotency-Key is another project', async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1', null));
    const first = await create({ idempotencyKey: 'idem-1' });
    const second = await create({ idempotencyKey: 'idem-2' });

    expect(second.id).not.toBe(first.id);
    expect(await slots()).toBe(2);
  });

  it('a refused project (end before start) takes no slot', async () => {
    await spec.given(workspaceStream('ws_1'), given.workspaceCreated('ws_1', 1));

    await spec.whenRefused(() => create({}, { ...input, end_date: '2026-11-30' }), 'validation', END_DATE_AFTER_START);
    expect(await slots()).toBe(0);
  });

  it('a workspace that does not exist takes no project', async () => {
    const error = await create().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('not_found');
    expect(await spec.events.headPosition()).toBe(0);
  });
});
