import { projectStream } from '@app/domain';
import { encodeCursor, INVALID_CURSOR, PAGE_SIZE } from '../../shared/pagination';
import { given, handlerSpec, NOW } from '../../shared/handler.spec-helper';
import { ListProjectsHandler, NAME_SEARCH_BATCH } from './list-projects.handler';
import { ListProjectsQuery, ProjectListFilter } from './list-projects.query';

describe('ListProjectsHandler (embedded read models)', () => {
  const spec = handlerSpec();
  const list = (workspaceId: string, filter: ProjectListFilter = { archived: false }) =>
    new ListProjectsHandler(spec.read).execute(new ListProjectsQuery(workspaceId, filter));
  const ids = (page: { projects: { id: string }[] }) => page.projects.map((p) => p.id);

  it("lists the workspace's projects in creation order, a page at a time, with a cursor while more exist", async () => {
    for (let i = 1; i <= PAGE_SIZE + 2; i++)
      await spec.given(projectStream(`prj_${i}`), given.projectCreated(`prj_${i}`, 'ws_1'));
    await spec.given(projectStream('prj_other'), given.projectCreated('prj_other', 'ws_2'));

    const first = await list('ws_1');
    expect(first.count).toBe(PAGE_SIZE);
    expect(ids(first)).toEqual(Array.from({ length: PAGE_SIZE }, (_, i) => `prj_${i + 1}`));
    expect(first.projects[0]).toMatchObject({ id: 'prj_1', name: 'Dam inspection', archived: false });
    expect(first.cursor).not.toBeNull();

    const second = await list('ws_1', { archived: false, cursor: first.cursor! });
    expect(second).toMatchObject({ count: 2, cursor: null });
    expect(ids(second)).toEqual([`prj_${PAGE_SIZE + 1}`, `prj_${PAGE_SIZE + 2}`]);
    expect(ids(await list('ws_2'))).toEqual(['prj_other']);
  });

  it('filters by archived and by status', async () => {
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
    await spec.given(projectStream('prj_2'), given.projectCreated('prj_2', 'ws_1'), {
      type: 'project.updated',
      data: { id: 'prj_2', workspace_id: 'ws_1', changes: { archived: true }, updated: NOW },
    });
    await spec.given(projectStream('prj_3'), given.projectCreated('prj_3', 'ws_1'), {
      type: 'project.updated',
      data: { id: 'prj_3', workspace_id: 'ws_1', changes: { status: 'in_progress' }, updated: NOW },
    });

    expect(ids(await list('ws_1'))).toEqual(['prj_1', 'prj_3']);
    expect(ids(await list('ws_1', { archived: true }))).toEqual(['prj_2']);
    expect(ids(await list('ws_1', { archived: false, statuses: ['in_progress'] }))).toEqual(['prj_3']);
    expect(await list('ws_1', { archived: false, statuses: ['completed'] })).toEqual({
      projects: [],
      count: 0,
      cursor: null,
    });
  });

  it('searches by name, ignoring case, a page at a time across more projects than one read holds', async () => {
    const renamed = (id: string, name: string) => ({
      type: 'project.updated' as const,
      data: { id, workspace_id: 'ws_1', changes: { name }, updated: NOW },
    });
    const total = NAME_SEARCH_BATCH + PAGE_SIZE + 10;
    const history = Array.from({ length: total }, (_, i) => i + 1).flatMap((i) => [
      { streamId: projectStream(`prj_${i}`), events: [given.projectCreated(`prj_${i}`, 'ws_1')] },
      ...(i % 10 === 0
        ? [{ streamId: projectStream(`prj_${i}`), events: [renamed(`prj_${i}`, `North TOWER ${i}`)] }]
        : []),
    ]);
    for (const { streamId, events } of history) await spec.given(streamId, ...events);
    await spec.given(projectStream('prj_other'), given.projectCreated('prj_other', 'ws_2'), {
      type: 'project.updated',
      data: { id: 'prj_other', workspace_id: 'ws_2', changes: { name: 'tower of another' }, updated: NOW },
    });

    const towers = Array.from({ length: total / 10 }, (_, i) => `prj_${(i + 1) * 10}`);
    const first = await list('ws_1', { archived: false, nameContains: 'tower' });
    expect(ids(first)).toEqual(towers.slice(0, PAGE_SIZE));
    const second = await list('ws_1', { archived: false, nameContains: 'tower', cursor: first.cursor! });
    expect(ids(second)).toEqual(towers.slice(PAGE_SIZE));
    expect(second.cursor).toBeNull();
    expect(await list('ws_1', { archived: false, nameContains: 'no such name' })).toEqual({
      projects: [],
      count: 0,
      cursor: null,
    });
  }, 60_000);

  it('refuses a cursor it did not make', async () => {
    await expect(list('ws_1', { archived: false, cursor: 'nope!' })).rejects.toMatchObject({ message: INVALID_CURSOR });
    expect((await list('ws_1', { archived: false, cursor: encodeCursor(10) })).count).toBe(0);
  });
});
