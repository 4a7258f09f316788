import { JobTypeCreated, jobTypeStream } from '@app/domain';
import { projectorSpec, SpecHistory } from '../projections/projector.spec-helper';
import { JOB_TYPES, jobTypeProjector } from './job-type.projector';

const created = (id: string, workspaceId: string, name = 'Roof survey'): JobTypeCreated => ({
  type: 'job_type.created',
  data: { id, workspace_id: workspaceId, name, icon: 'roof', created: 100 },
});
const deleted = (id: string, workspaceId: string) =>
  ({ type: 'job_type.deleted', data: { id, workspace_id: workspaceId, deleted: 200 } }) as const;

describe('job type projector: given events -> custom job type documents', () => {
  const projection = projectorSpec(jobTypeProjector);
  let history: SpecHistory;
  beforeEach(() => {
    history = new SpecHistory();
  });

  it('a created custom type is its view, never predefined', async () => {
    await projection.given(history.record(jobTypeStream('jbt_1'), created('jbt_1', 'ws_1')));

    await projection.expectDocuments({
      [JOB_TYPES]: [
        {
          id: 'jbt_1',
          workspaceId: 'ws_1',
          seq: 1,
          version: 0,
          doc: { id: 'jbt_1', name: 'Roof survey', icon: 'roof', is_predefined: false },
        },
      ],
    });
  });

  it('a deleted type leaves no document; the others stay', async () => {
    await projection.given(
      history.record(jobTypeStream('jbt_1'), created('jbt_1', 'ws_1')),
      history.record(jobTypeStream('jbt_2'), created('jbt_2', 'ws_1', 'Bridge')),
      history.record(jobTypeStream('jbt_1'), deleted('jbt_1', 'ws_1')),
    );

    await projection.expectDocuments({
      [JOB_TYPES]: [
        {
          id: 'jbt_2',
          workspaceId: 'ws_1',
          seq: 2,
          version: 0,
          doc: { id: 'jbt_2', name: 'Bridge', icon: 'roof', is_predefined: false },
        },
      ],
    });
  });

  it('a redelivered history leaves the same documents: a deleted type does not come back', async () => {
    const events = [
      history.record(jobTypeStream('jbt_1'), created('jbt_1', 'ws_1')),
      history.record(jobTypeStream('jbt_2'), created('jbt_2', 'ws_1', 'Bridge')),
      history.record(jobTypeStream('jbt_1'), deleted('jbt_1', 'ws_1')),
    ];
    await projection.given(...events);
    const once = await projection.documents();

    await projection.given(events[2]);
    await projection.given(...events);

    expect(await projection.documents()).toEqual(once);
    expect(await projection.store.count(JOB_TYPES, { workspaceId: 'ws_1' })).toBe(1);
  });

  it("another workspace's custom types are listed in that workspace only", async () => {
    await projection.given(
      history.record(jobTypeStream('jbt_1'), created('jbt_1', 'ws_1')),
      history.record(jobTypeStream('jbt_9'), created('jbt_9', 'ws_2', 'Theirs')),
    );

    const list = (ws: string) =>
      projection.store.find(JOB_TYPES, { workspaceId: ws, limit: 10 }).then((docs) => docs.map((d) => d.doc.name));
    expect(await list('ws_1')).toEqual(['Roof survey']);
    expect(await list('ws_2')).toEqual(['Theirs']);
  });
});
