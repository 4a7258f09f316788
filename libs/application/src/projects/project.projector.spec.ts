import { CreatedBy, ProjectCreated, projectStream } from '@app/domain';
import { projectorSpec, SpecHistory } from '../projections/projector.spec-helper';
import { PROJECTS, projectProjector } from './project.projector';

const createdBy: CreatedBy = {
  id: 'key_1',
  email: null,
  first_name: 'Ops bot',
  last_name: null,
  profile_picture: null,
};

const created = (id: string, workspaceId: string): ProjectCreated => ({
  type: 'project.created',
  data: {
    id,
    workspace_id: workspaceId,
    name: 'Dam inspection',
    description: 'Spillway',
    status: 'other',
    other_status_reason: 'waiting for the permit',
    start_date: '2026-12-01',
    end_date: null,
    external_id: 'ext-1',
    created_by: createdBy,
    created: 100,
  },
});

/** The document of `created(id, ws)` as GET /projects/{id} serves it. */
const shown = (id: string) => ({
  id,
  name: 'Dam inspection',
  description: 'Spillway',
  status: 'other',
  start_date: '2026-12-01',
  end_date: null,
  created: 100,
  updated: 100,
  archived: false,
  external_id: 'ext-1',
  laanc_number: null,
  created_by: createdBy,
});

describe('project projector: given events -> project documents', () => {
  const projection = projectorSpec(projectProjector);
  let history: SpecHistory;
  beforeEach(() => {
    history = new SpecHistory();
  });

  it('a created project is a document with the defaults of a new project, never the write-only reason', async () => {
    await projection.given(history.record(projectStream('prj_1'), created('prj_1', 'ws_1')));

    await projection.expectDocuments({
      [PROJECTS]: [{ id: 'prj_1', workspaceId: 'ws_1', seq: 1, version: 0, doc: shown('prj_1') }],
    });
  });

  it('updates set only the fields that changed, move the version and never show other_status_reason', async () => {
    const stream = projectStream('prj_1');
    await projection.given(
      history.record(stream, created('prj_1', 'ws_1')),
      history.record(stream, {
        type: 'project.updated',
        data: {
          id: 'prj_1',
          workspace_id: 'ws_1',
          changes: { name: 'Dam', status: 'planned', other_status_reason: null, laanc_number: 'L-7' },
          updated: 200,
        },
      }),
      history.record(stream, {
        type: 'project.updated',
        data: { id: 'prj_1', workspace_id: 'ws_1', changes: { archived: true }, updated: 300 },
      }),
    );

    await projection.expectDocuments({
      [PROJECTS]: [
        {
          id: 'prj_1',
          workspaceId: 'ws_1',
          seq: 1, // lists keep the place of the creation
          version: 2,
          doc: { ...shown('prj_1'), name: 'Dam', status: 'planned', laanc_number: 'L-7', archived: true, updated: 300 },
        },
      ],
    });
  });

  it('a deleted project leaves no document; its other projects stay', async () => {
    await projection.given(
      history.record(projectStream('prj_1'), created('prj_1', 'ws_1')),
      history.record(projectStream('prj_2'), created('prj_2', 'ws_1')),
      history.record(projectStream('prj_1'), {
        type: 'project.deleted',
        data: { id: 'prj_1', workspace_id: 'ws_1', deleted: 300 },
      }),
    );

    await projection.expectDocuments({
      [PROJECTS]: [{ id: 'prj_2', workspaceId: 'ws_1', seq: 2, version: 0, doc: shown('prj_2') }],
    });
  });

  it('an abandoned creation (a tombstone without a project) writes nothing', async () => {
    await projection.given(
      history.record(projectStream('prj_1'), {
        type: 'project.creation_abandoned',
        data: { id: 'prj_1', workspace_id: 'ws_1', abandoned: 300 },
      }),
    );

    await projection.expectDocuments({});
  });

  it('events redelivered after a crash (replayed from the checkpoint) leave the same documents', async () => {
    const stream = projectStream('prj_1');
    const events = [
      history.record(stream, created('prj_1', 'ws_1')),
      history.record(stream, {
        type: 'project.updated',
        data: { id: 'prj_1', workspace_id: 'ws_1', changes: { name: 'Dam' }, updated: 200 },
      }),
    ];
    await projection.given(...events);
    const once = await projection.documents();

    await projection.given(...events);
    await projection.given(events[1]);

    expect(await projection.documents()).toEqual(once);
  });

  it("another workspace's projects are documents of that workspace only", async () => {
    await projection.given(
      history.record(projectStream('prj_1'), created('prj_1', 'ws_1')),
      history.record(projectStream('prj_2'), created('prj_2', 'ws_2')),
      history.record(projectStream('prj_2'), {
        type: 'project.updated',
        data: { id: 'prj_2', workspace_id: 'ws_2', changes: { name: 'Theirs' }, updated: 200 },
      }),
    );

    const ws1 = await projection.store.find(PROJECTS, { workspaceId: 'ws_1', limit: 10 });
    expect(ws1).toEqual([{ id: 'prj_1', workspaceId: 'ws_1', seq: 1, version: 0, doc: shown('prj_1') }]);
    const ws2 = await projection.store.find(PROJECTS, { workspaceId: 'ws_2', limit: 10 });
    expect(ws2.map((d) => [d.id, d.doc.name])).toEqual([['prj_2', 'Theirs']]);
  });
});
