import { OPERATOR, projectDecider, projectStream, workspaceStream } from '@app/domain';
import { Clock } from '../../ports/clock.port';
import { FindQuery, ReadModelStore, StoredDocument } from '../../ports/read-model.port';
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
  /** Most repairs of each kind per sweep. */
  batch?: number;
  /** Where a repair that failed is reported (the sweep goes on with the next one). */
  logger?: { warn(message: string, detail?: unknown): void };
}

/**
 * The kinds of repair: a reservation whose project never appeared (`abandoned_creation`), a
 * deleted project still holding its slot or live jobs (`unfinished_deletion`), a job created in a
 * project after its deletion (`late_job`).
 */
export const REPAIR_KINDS = ['abandoned_creation', 'unfinished_deletion', 'late_job'] as const;
export type RepairKind = (typeof REPAIR_KINDS)[number];

export interface SweepResult {
  abandoned: number;
  released: number;
  jobsDeleted: number;
  /**
   * Per kind: `done`, the repairs that wrote something; `failed`, those that threw (logged, and
   * looked at again by a later sweep). What the edge turns into metrics.
   */
  repairs: Record<RepairKind, { done: number; failed: number }>;
}

type Ledger = { project_id: string; workspace_id: string; late_job_at?: number };
/** What one repair decided. */
type Tally = Pick<SweepResult, 'abandoned' | 'released' | 'jobsDeleted'>;
const NOTHING: Tally = { abandoned: 0, released: 0, jobsDeleted: 0 };

/**
 * Finishes or undoes writes that stopped part way on a store without multi-stream transactions
 * (EventStoreDB): the rules across streams of docs/decisions.md, "The same rules on EventStoreDB".
 * The slot ledger projection says where to look; every repair is decided on the streams
 * themselves, so a ledger that lags can only delay a repair, and repairs are idempotent.
 *
 * - A slot reserved for a project never created: the project's stream gets a tombstone
 *   (`project.creation_abandoned`, expected: no stream, so a create arriving late fails), then the
 *   slot is released (the workspace releases a project's slot once: see its `slotHolders`).
 * - A deleted project still holding its slot: its live jobs are deleted, then the slot released.
 * - A job created in a project deleted meanwhile: deleted, with anything else of the project's
 *   cascade still undone. The ledger marks such a project by the order of the events, so it is
 *   found however long the projection took to get there.
 *
 * Each repair stands alone: one that fails is logged and counted, and the sweep goes on. The
 * ledger is read in pages that move on from sweep to sweep (and start over past the end), so
 * documents whose repair decides nothing (a ledger behind the streams) never hold the others up.
 *
 * On the embedded store every such write is atomic and a sweep finds nothing to do.
 */
export class SlotReconciler {
  private readonly graceMs: number;
  private readonly batch: number;
  private readonly logger: { warn(message: string, detail?: unknown): void };
  /** Where the next page of each ledger collection starts (undefined: at the beginning). */
  private readonly after: Record<'pending' | 'held', number | undefined> = { pending: undefined, held: undefined };
  /** Late jobs at store positions below this were all repaired by an earlier sweep of this process. */
  private lateJobsFrom = 0;

  constructor(
    private readonly repository: EventSourcedRepository,
    private readonly read: ReadModelStore,
    private readonly clock: Clock,
    options: SlotReconcilerOptions = {},
  ) {
    this.graceMs = options.graceMs ?? 120_000;
    this.batch = options.batch ?? 100;
    this.logger = options.logger ?? { warn: () => undefined };
  }

  async sweep(): Promise<SweepResult> {
    const result: SweepResult = {
      abandoned: 0,
      released: 0,
      jobsDeleted: 0,
      repairs: {
        abandoned_creation: { done: 0, failed: 0 },
        unfinished_deletion: { done: 0, failed: 0 },
        late_job: { done: 0, failed: 0 },
      },
    };
    const now = this.clock.now();
    const cutoff = now - this.graceMs;

    const pending = await this.page('pending', SLOTS_PENDING, { reserved_at: { lte: cutoff } });
    for (const { doc } of pending) {
      await this.repair(result, 'abandoned_creation', doc, async (unit) => {
        const stream = projectStream(doc.project_id);
        const { state } = await unit.load(projectDecider, stream);
        if (state.status === 'live' || state.status === 'deleted') return NOTHING; // created after all
        // Abandoned already (by an earlier sweep, or by this one's write cut or refused part way):
        // the tombstone decides nothing, and the release only if the project still holds its slot.
        const tombstone = {
          type: 'AbandonProjectCreation' as const,
          id: doc.project_id,
          workspaceId: doc.workspace_id,
          now,
        };
        const abandoned = (await unit.decide(projectDecider, stream, tombstone, { order: 'first' })).events.length;
        const released = (await releaseProjectSlot(unit, doc.workspace_id, doc.project_id)) ? 1 : 0;
        return { abandoned, released, jobsDeleted: 0 };
      });
    }

    const held = await this.page('held', SLOTS_HELD_BY_DELETED, { deleted_at: { lte: cutoff } });
    for (const { doc } of held) await this.finishDeletion(result, 'unfinished_deletion', doc, now);

    // Every project a job was created in after its deletion, since the last sweep that repaired
    // them all (a process that starts looks at each once again: they are few, and idempotent).
    let highest = this.lateJobsFrom - 1;
    for (let afterSeq: number | undefined; ;) {
      const late = await this.read.find<Ledger>(DELETED_PROJECTS, {
        where: { late_job_at: { gte: this.lateJobsFrom } },
        afterSeq,
        limit: this.batch,
      });
      for (const { doc } of late) {
        highest = Math.max(highest, doc.late_job_at ?? highest);
        await this.finishDeletion(result, 'late_job', doc, now);
      }
      if (late.length < this.batch) break;
      afterSeq = late[late.length - 1].seq;
    }
    if (result.repairs.late_job.failed === 0) this.lateJobsFrom = highest + 1;
    return result;
  }

  /** A deleted project's cascade, finished: its live jobs deleted, then its slot released. */
  private async finishDeletion(result: SweepResult, kind: RepairKind, doc: Ledger, now: number) {
    await this.repair(result, kind, doc, async (unit, projected) => {
      const { state } = await unit.load(projectDecider, projectStream(doc.project_id));
      if (state.status !== 'deleted') return NOTHING;
      const done = await cascadeProjectDeletion(unit, doc.workspace_id, doc.project_id, projected, now);
      return { abandoned: 0, released: done.released ? 1 : 0, jobsDeleted: done.jobsDeleted };
    });
  }

  /** The next page of a ledger collection, from where the last sweep's page ended. */
  private async page(
    cursor: 'pending' | 'held',
    collection: string,
    where: FindQuery['where'],
  ): Promise<StoredDocument<Ledger>[]> {
    const page = await this.read.find<Ledger>(collection, { where, afterSeq: this.after[cursor], limit: this.batch });
    this.after[cursor] = page.length < this.batch ? undefined : page[page.length - 1].seq;
    return page;
  }

  /**
   * One repair, queued with the workspace's other slot changes. `work` (which may run more than
   * once) answers what it decided; it counts once written. A failure is logged and counted, never
   * thrown: the next document is repaired all the same.
   */
  private async repair(
    result: SweepResult,
    kind: RepairKind,
    doc: Ledger,
    work: (unit: UnitOfWork, projected: string[]) => Promise<Tally>,
  ): Promise<void> {
    try {
      const projected =
        kind === 'abandoned_creation'
          ? []
          : await projectJobIdsInReadModels(this.read, doc.workspace_id, doc.project_id);
      const context = backgroundContext(doc.workspace_id, OPERATOR, 'slot-reconciler');
      const { result: done } = await this.repository.transact(
        workspaceStream(doc.workspace_id),
        context,
        (unit) => work(unit, projected),
        { waitForReadModels: false },
      );
      result.abandoned += done.abandoned;
      result.released += done.released;
      result.jobsDeleted += done.jobsDeleted;
      if (done.abandoned + done.released + done.jobsDeleted > 0) result.repairs[kind].done++;
    } catch (error) {
      result.repairs[kind].failed++;
      this.logger.warn(
        `Slot reconciler: ${kind} of project ${doc.project_id} failed; a later sweep tries again`,
        error,
      );
    }
  }
}
