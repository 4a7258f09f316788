import { JobTypeCreated, jobTypeStream } from '@app/domain';
import { projectorSpec } from '../projections/projector.spec-helper';
import { JOB_TYPES, jobTypeProjector } from './job-type.projector';

const created = (id: string, workspaceId: string, name = 'Roof survey'): JobTypeCreated => ({
  type: 'job_type.created',
  data: { id, workspace_id: workspaceId, name, icon: 'roof', created: 100 },
});
const deleted = (id: string, workspaceId: string) =>
  ({ type: 'job_type.deleted', data: { id, workspace_id: workspaceId, deleted: 200 } }) as const;

/** The document of `created(id, 'ws_1', name)`, recorded at `seq`: a custom type is never predefined. */
const shown = (id: string, name: string, seq: number) => ({
  id,
  workspaceId: 'ws_1',
  seq,
  version: 0,
  doc: { id, name, icon: 'roof', is_predefined: false },
});

describe('job type projector: given events -> custom job type documents', () => {
  const projection = projectorSpec(jobTypeProjector);
  const { record } = projection;
  /** Two types of ws_1, the first deleted. */
  const createdTwiceDeletedOnce = () => [
    record(jobTypeStream('jbt_1'), created('jbt_1', 'ws_1')),
    record(jobTypeStream('jbt_2'), created('jbt_2', 'ws_1', 'Bridge')),
    record(jobTypeStream('jbt_1'), deleted('jbt_1', 'ws_1')),
  ];

  it('a created custom type is its view, never predefined', async () => {
    await projection.given(record(jobTypeStream('jbt_1'), created('jbt_1', 'ws_1')));

    await projection.expectDocuments({ [JOB_TYPES]: [shown('jbt_1', 'Roof survey', 1)] });
  });

  it('a deleted type leaves no document; the others stay', async () => {
    await projection.given(...createdTwiceDeletedOnce());

    await projection.expectDocuments({ [JOB_TYPES]: [shown('jbt_2', 'Bridge', 2)] });
  });

  it('a redelivered history leaves the same documents: a deleted type does not come back', async () => {
    const events = createdTwiceDeletedOnce();
    await projection.expectRedeliveriesChangeNothing(events, [events[2]], events);

    expect(await projection.store.count(JOB_TYPES, { workspaceId: 'ws_1' })).toBe(1);
  });

  it("another workspace's custom types are listed in that workspace only", async () => {
    await projection.given(
      record(jobTypeStream('jbt_1'), created('jbt_1', 'ws_1')),
      record(jobTypeStream('jbt_9'), created('jbt_9', 'ws_2', 'Theirs')),
    );

    const list = (ws: string) =>
      projection.store.find(JOB_TYPES, { workspaceId: ws, limit: 10 }).then((docs) => docs.map((d) => d.doc.name));
    expect(await list('ws_1')).toEqual(['Roof survey']);
    expect(await list('ws_2')).toEqual(['Theirs']);
  });
});
