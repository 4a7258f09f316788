import { MAX_PILOTS_PER_REQUEST } from '@app/domain';
import { ReadModelStore, StoredDocument } from '../../ports/read-model.port';
import { JOB_ASSIGNMENTS, JobAssignmentDoc } from '../job.projector';

const ASSIGNMENT_BATCH = 5 * MAX_PILOTS_PER_REQUEST;

/**
 * The job's pilots in the order they were assigned. Pilots assigned by one request share a `seq`
 * (the position of their event), so paging by `seq` must not cut such a group in two: a full
 * batch gives back its trailing group, which the next batch reads whole. A group holds at most
 * MAX_PILOTS_PER_REQUEST ids, fewer than a batch, so every batch makes progress.
 */
export async function assignedPilots(read: ReadModelStore, workspaceId: string, jobId: string): Promise<string[]> {
  const pilots: string[] = [];
  let afterSeq: number | undefined;
  for (;;) {
    const batch: StoredDocument<JobAssignmentDoc>[] = await read.find<JobAssignmentDoc>(JOB_ASSIGNMENTS, {
      workspaceId,
      where: { job_id: jobId },
      afterSeq,
      limit: ASSIGNMENT_BATCH,
    });
    const full = batch.length === ASSIGNMENT_BATCH;
    const lastSeq = batch.length > 0 ? batch[batch.length - 1].seq : undefined;
    const whole = full ? batch.filter((d) => d.seq !== lastSeq) : batch;
    if (full && whole.length === 0) throw new Error(`More than ${ASSIGNMENT_BATCH} assignments share one event`);
    whole.sort((a, b) => a.seq - b.seq || a.doc.index - b.doc.index);
    pilots.push(...whole.map((d) => d.doc.pilot_id));
    if (!full) return pilots;
    afterSeq = whole[whole.length - 1].seq;
  }
}
