import {
  DomainError,
  jobDecider,
  jobStream,
  JobView,
  OPERATOR,
  projectDecider,
  projectStream,
  workspaceStream,
} from '@app/domain';
import { Clock } from '../../ports/clock.port';
import { ReadModelStore } from '../../ports/read-model.port';
import { JOBS } from '../../jobs/job.projector';
import { backgroundContext } from '../../shared/command-context';
import { cascadeProjectDeletion, projectJobIdsInReadModels, releaseProjectSlot } from '../project-jobs-cascade';
import { EventSourcedRepository, UnitOfWork } from '../../shared/event-sourced-repository';
import { DELETED_PROJECTS, SLOTS_HELD_BY_DELETED, SLOTS_PENDING } from './slot-ledger.projector';

export interface SlotReconcilerOptions {
  /**
   * How long a write may take between its first and its last append before the reconciler treats
   * it as stopped for good. Far above any request's lifetime (the request timeout is 30 s).
   */
  graceMs?: number;
  /** How far back a deleted project is checked for jobs created in it too late. */
  lateJobWindowMs?: number;
  /** Most repairs of each kind per sweep. */
  batch?: number;
}

export interface SweepResult {
  abandoned: number;
  released: number;
  jobsDeleted: number;
}

/**
 * Finishes or undoes writes that stopped part way on a store without multi-stream transactions
 * (EventStoreDB): the rules across streams of docs/decisions.md, "The same rules on EventStoreDB".
 * The slot ledger projection says where to look; every repair is decided on the streams
 * themselves, so a ledger that lags can only delay a repair, and repairs are idempotent.
 *
 * - A slot reserved for a project never created: the project's stream gets a tombstone
 *   (`project.creation_abandoned`, expected: no stream, so a create arriving late fails), then the
 *   slot is released.
 * - A deleted project still holding its slot: its live jobs are deleted, then the slot released.
 * - A job created in a project deleted meanwhile: deleted.
 *
 * On the embedded store every such write is atomic and a sweep finds nothing to do.
 */
export class SlotReconciler {
  private readonly graceMs: number;
  private readonly lateJobWindowMs: number;
  private readonly batch: number;

  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly read: ReadModelStore,
    private readonly clock: Clock,
    options: SlotReconcilerOptions = {},
  ) {
    this.graceMs = options.graceMs ?? 120_000;
    this.lateJobWindowMs = options.lateJobWindowMs ?? 15 * 60_000;
    this.batch = options.batch ?? 100;
  }

  async sweep(): Promise<SweepResult> {
    const result: SweepResult = { abandoned: 0, released: 0, jobsDeleted: 0 };
    const now = this.clock.now();
    const cutoff = now - this.graceMs;

    type Ledger = { project_id: string; workspace_id: string };
    const pending = await this.read.find<Ledger>(SLOTS_PENDING, {
      where: { reserved_at: { lte: cutoff } },
      limit: this.batch,
    });
    for (const { doc } of pending) {
      await this.repair(doc.workspace_id, async (unit) => {
        const stream = projectStream(doc.project_id);
        const { state } = await unit.load(projectDecider, stream);
        if (state.status === 'live' || state.status === 'deleted') return; // created after all
        // Abandoned by an earlier sweep whose release may not be projected yet: wait for the ledger.
        if (state.status === 'abandoned' && state.abandonedAt > cutoff) return;
        const tombstone = {
          type: 'AbandonProjectCreation' as const,
          id: doc.project_id,
          workspaceId: doc.workspace_id,
          now,
        };
        if ((await unit.decide(projectDecider, stream, tombstone, { order: 'first' })).events.length > 0)
          result.abandoned++;
        if (await releaseProjectSlot(unit, doc.workspace_id, doc.project_id)) result.released++;
      });
    }

    const held = await this.read.find<Ledger>(SLOTS_HELD_BY_DELETED, {
      where: { deleted_at: { lte: cutoff } },
      limit: this.batch,
    });
    for (const { doc } of held) {
      const projected = await projectJobIdsInReadModels(this.read, doc.workspace_id, doc.project_id);
      await this.repair(doc.workspace_id, async (unit) => {
        const { state } = await unit.load(projectDecider, projectStream(doc.project_id));
        if (state.status !== 'deleted') return;
        const done = await cascadeProjectDeletion(unit, doc.workspace_id, doc.project_id, projected, now);
        result.jobsDeleted += done.jobsDeleted;
        if (done.released) result.released++;
      });
    }

    const recent = await this.read.find<Ledger>(DELETED_PROJECTS, {
      where: { deleted_at: { gte: now - this.lateJobWindowMs } },
      limit: 1000,
    });
    for (const { doc } of recent) {
      const jobs = await this.read.find<JobView>(JOBS, {
        workspaceId: doc.workspace_id,
        where: { project_id: doc.project_id },
        limit: this.batch,
      });
      for (const job of jobs) {
        try {
          const context = backgroundContext(doc.workspace_id, OPERATOR, 'slot-reconciler');
          await this.repository.execute(jobDecider, jobStream(job.id), { type: 'DeleteJob', now }, context, {
            waitForReadModels: false,
          });
          result.jobsDeleted++;
        } catch (error) {
          if (!(error instanceof DomainError && error.kind === 'not_found')) throw error; // deleted meanwhile
        }
      }
    }
    return result;
  }

  /** One repair, queued with the workspace's other slot changes. */
  private async repair(workspaceId: string, work: (unit: UnitOfWork) => Promise<void>) {
    const context = backgroundContext(workspaceId, OPERATOR, 'slot-reconciler');
    await this.repository.transact(workspaceStream(workspaceId), context, work, { waitForReadModels: false });
  }
}
