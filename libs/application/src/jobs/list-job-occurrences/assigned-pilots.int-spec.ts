import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobEvent, MAX_PILOTS_PER_REQUEST } from '@app/domain';
import { SqliteReadModelStore } from '@app/infrastructure/sqlite';
import { RecordedEvent } from '../../ports/event-store.port';
import { jobProjector } from '../job.projector';
import { assignedPilots } from './assigned-pilots';

/**
 * The job's pilot list is read in batches by `seq`, and every pilot of one assign request shares
 * the `seq` of its event: a batch boundary inside such a group must neither drop nor repeat
 * pilots, and the order must be the order of assignment.
 */
describe('assignedPilots (job_assignments read model, embedded SQLite)', () => {
  let dir: string;
  let store: SqliteReadModelStore;
  let position = 0;
  const ref = { id: 'job_1', workspace_id: 'ws_1', project_id: 'prj_1' };

  const project = async (event: JobEvent, revision: number) => {
    position += 1;
    const recorded = {
      ...event,
      id: `e${position}`,
      streamId: 'job-job_1',
      revision,
      position,
      schemaVersion: 1,
    } as unknown as RecordedEvent;
    await store.apply(jobProjector.project(recorded), { jobs: position });
  };
  const assigned = (pilot_ids: string[]): JobEvent => ({
    type: 'job.pilots_assigned',
    data: { ...ref, pilot_ids, occurrences_per_pilot: 3, assigned: 1 },
  });

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-assignments-'));
    store = new SqliteReadModelStore(join(dir, 'read-models.db'));
    await store.init(jobProjector.collections);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns every pilot once, in assignment order, across many full requests', async () => {
    const expected: string[] = [];
    for (let request = 0; request < 7; request++) {
      // Ids in descending order within a request, so a sort by id would be caught.
      const ids = Array.from(
        { length: MAX_PILOTS_PER_REQUEST },
        (_, i) => `usr_${request}_${String(999 - i).padStart(3, '0')}`,
      );
      await project(assigned(ids), request + 1);
      expected.push(...ids);
    }
    const removed = [expected[0], expected[450], expected[699]];
    await project(
      { type: 'job.pilots_unassigned', data: { ...ref, pilot_ids: removed, occurrences_per_pilot: 3, unassigned: 2 } },
      8,
    );
    await project(assigned(['usr_last']), 9);

    const pilots = await assignedPilots(store, 'ws_1', 'job_1');
    expect(pilots).toEqual([...expected.filter((id) => !removed.includes(id)), 'usr_last']);
  });

  it('sees nothing of another workspace, and nothing once the job is deleted', async () => {
    await project(assigned(['usr_a', 'usr_b']), 1);
    expect(await assignedPilots(store, 'ws_other', 'job_1')).toEqual([]);
    await project({ type: 'job.deleted', data: { ...ref, deleted: 3 } }, 2);
    expect(await assignedPilots(store, 'ws_1', 'job_1')).toEqual([]);
  });
});
