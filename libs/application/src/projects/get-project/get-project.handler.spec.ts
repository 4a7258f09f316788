import { PROJECT_NOT_FOUND, projectStream } from '@app/domain';
import { given, handlerSpec, NOW, SPEC_CREATED_BY } from '../../shared/handler.spec-helper';
import { GetProjectHandler } from './get-project.handler';
import { GetProjectQuery } from './get-project.query';

describe('GetProjectHandler (embedded read models)', () => {
  const spec = handlerSpec();
  const get = (workspaceId: string, projectId = 'prj_1') =>
    new GetProjectHandler(spec.read).execute(new GetProjectQuery(workspaceId, projectId));

  beforeEach(async () => {
    await spec.given(projectStream('prj_1'), given.projectCreated('prj_1', 'ws_1'));
  });

  it('answers the project and the revision it mirrors, from one read', async () => {
    const found = await get('ws_1');

    expect(found.revision).toBe(0);
    expect(found.project).toEqual({
      id: 'prj_1',
      name: 'Dam inspection',
      description: 'Spillway',
      status: 'planned',
      start_date: '2026-12-01',
      end_date: null,
      external_id: null,
      laanc_number: null,
      archived: false,
      created: NOW - 1000,
      updated: NOW - 1000,
      created_by: SPEC_CREATED_BY,
    });
    await spec.given(projectStream('prj_1'), {
      type: 'project.updated',
      data: { id: 'prj_1', workspace_id: 'ws_1', changes: { name: 'Dam survey' }, updated: NOW },
    });
    await expect(get('ws_1')).resolves.toMatchObject({ project: { name: 'Dam survey' }, revision: 1 });
  });

  it("another workspace's project is not found, exactly like a missing one", async () => {
    await expect(get('ws_2')).rejects.toMatchObject({ kind: 'not_found', message: PROJECT_NOT_FOUND });
    await expect(get('ws_1', 'prj_404')).rejects.toMatchObject({ kind: 'not_found', message: PROJECT_NOT_FOUND });
  });

  it('a deleted project is not found', async () => {
    await spec.given(projectStream('prj_1'), {
      type: 'project.deleted',
      data: { id: 'prj_1', workspace_id: 'ws_1', deleted: NOW },
    });
    await expect(get('ws_1')).rejects.toMatchObject({ kind: 'not_found', message: PROJECT_NOT_FOUND });
  });
});
