import { RecordedEvent } from '../ports/event-store.port';
import { given } from '../shared/handler.spec-helper';
import { ResourceViews } from './resource-views';

const created = { ...given.projectCreated('p1', 'ws1').data, name: 'A', created: 1 };
const stream: RecordedEvent[] = [
  { type: 'project.created', data: created },
  { type: 'project.updated', data: { id: 'p1', workspace_id: 'ws1', changes: { name: 'B' }, updated: 2 } },
  {
    type: 'project.updated',
    data: { id: 'p1', workspace_id: 'ws1', changes: { name: 'C', archived: true }, updated: 3 },
  },
  { type: 'project.deleted', data: { id: 'p1', workspace_id: 'ws1', deleted: 4 } },
].map((e, revision) => ({
  ...e,
  id: `e${revision}`,
  schemaVersion: 1,
  metadata: {} as never,
  streamId: 'project-p1',
  revision,
  position: 10 + revision,
}));

describe('ResourceViews', () => {
  const reader = () => {
    const reads: number[] = [];
    return {
      reads,
      readStream: async (_id: string, options: { fromRevision?: number; maxCount?: number } = {}) => {
        reads.push(options.fromRevision ?? 0);
        return stream.slice(
          options.fromRevision ?? 0,
          (options.fromRevision ?? 0) + (options.maxCount ?? stream.length),
        );
      },
    };
  };

  it('shows the resource exactly as of each event, following the store with one evolve per event', async () => {
    const store = reader();
    const views = new ResourceViews(store);
    const data = [];
    for (const event of stream) data.push(await views.dataAt(event));
    expect(data.slice(0, 3).map((d) => [d!.name, d!.archived, d!.updated])).toEqual([
      ['A', false, 1],
      ['B', false, 2],
      ['C', true, 3],
    ]);
    expect(data[3]).toEqual({ id: 'p1' });
    expect(store.reads).toEqual([]);
  });

  it('reads the stream up to the event after a gap or out of order (restart, replay)', async () => {
    const store = reader();
    const views = new ResourceViews(store);
    expect((await views.dataAt(stream[2]))?.name).toBe('C');
    expect((await views.dataAt(stream[1]))?.name).toBe('B');
    expect(store.reads).toEqual([0, 0]);
    expect(views.webhookTypeOf('project.updated')).toBe('project.updated');
    expect(views.webhookTypeOf('job.pilots_assigned')).toBeNull();
  });
});
