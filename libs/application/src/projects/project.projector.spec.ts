import { ProjectChanges, ProjectCreated, projectStream, ProjectUpdated } from '@app/domain';
import { projectorSpec } from '../projections/projector.spec-helper';
import { given, SPEC_CREATED_BY } from '../shared/handler.spec-helper';
import { PROJECTS, projectProjector } from './project.projector';

/** A project created by the spec's API key, with a status reason and an external id, at 100. */
const created = (id: string, workspaceId: string): ProjectCreated => {
  const { type, data } = given.projectCreated(id, workspaceId);
  return {
    type,
    data: {
      ...data,
      status: 'other',
      other_status_reason: 'waiting for the permit',
      external_id: 'ext-1',
      created: 100,
    },
  };
};

const updated = (id: string, workspaceId: string, changes: ProjectChanges, at: number): ProjectUpdated => ({
  type: 'project.updated',
  data: { id, workspace_id: workspaceId, changes, updated: at },
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
  created_by: SPEC_CREATED_BY,
});

describe('project projector: given events -> project documents', () => {
  const projection = projectorSpec(projectProjector);
  const { record } = projection;

  it('a created project is a document with the defaults of a new project, never the write-only reason', async () => {
    await projection.given(record(projectStream('prj_1'), created('prj_1', 'ws_1')));

    await projection.expectDocuments({
      [PROJECTS]: [{ id: 'prj_1', workspaceId: 'ws_1', seq: 1, version: 0, doc: shown('prj_1') }],
    });
  });

  it('updates set only the fields that changed, move the version and never show other_status_reason', async () => {
    const stream = projectStream('prj_1');
    await projection.given(
      record(stream, created('prj_1', 'ws_1')),
      record(
        stream,
        updated(
          'prj_1',
          'ws_1',
          { name: 'Dam', status: 'planned', other_status_reason: null, laanc_number: 'L-7' },
          200,
        ),
      ),
      record(stream, updated('prj_1', 'ws_1', { archived: true }, 300)),
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
      record(projectStream('prj_1'), created('prj_1', 'ws_1')),
      record(projectStream('prj_2'), created('prj_2', 'ws_1')),
      record(projectStream('prj_1'), {
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
      record(projectStream('prj_1'), {
        type: 'project.creation_abandoned',
        data: { id: 'prj_1', workspace_id: 'ws_1', abandoned: 300 },
      }),
    );

    await projection.expectDocuments({});
  });

  it('events redelivered after a crash (replayed from the checkpoint) leave the same documents', async () => {
    const stream = projectStream('prj_1');
    const events = [
      record(stream, created('prj_1', 'ws_1')),
      record(stream, updated('prj_1', 'ws_1', { name: 'Dam' }, 200)),
    ];

    await projection.expectRedeliveriesChangeNothing(events, events, [events[1]]);
  });

  it("another workspace's projects are documents of that workspace only", async () => {
    await projection.given(
      record(projectStream('prj_1'), created('prj_1', 'ws_1')),
      record(projectStream('prj_2'), created('prj_2', 'ws_2')),
      record(projectStream('prj_2'), updated('prj_2', 'ws_2', { name: 'Theirs' }, 200)),
    );

    const ws1 = await projection.store.find(PROJECTS, { workspaceId: 'ws_1', limit: 10 });
    expect(ws1).toEqual([{ id: 'prj_1', workspaceId: 'ws_1', seq: 1, version: 0, doc: shown('prj_1') }]);
    const ws2 = await projection.store.find(PROJECTS, { workspaceId: 'ws_2', limit: 10 });
    expect(ws2.map((d) => [d.id, d.doc.name])).toEqual([['prj_2', 'Theirs']]);
  });
});
