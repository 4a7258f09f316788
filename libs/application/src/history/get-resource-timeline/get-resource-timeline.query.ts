import { Query } from '@nestjs/cqrs';
import { HistoryEntry } from '../history-entry';

/** The resources that have a timeline: each is one aggregate stream. */
export type TimelineKind = 'project' | 'job' | 'job_type' | 'webhook' | 'workspace';

/** One field a revision changed, with its value before and after (absent: `undefined`). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** A revision of a resource: its event as the history shows it, and what it changed in the resource's state. */
export interface TimelineRevision extends HistoryEntry {
  diff: FieldChange[];
}

export interface ResourceTimeline {
  kind: TimelineKind;
  /** The resource's id (the stream id without its prefix). */
  id: string;
  stream: string;
  workspace_id: string | null;
  /** The revision of the stream's latest event. */
  last_revision: number;
  /** One page of revisions, oldest first. */
  revisions: TimelineRevision[];
  count: number;
  cursor: string | null;
  /** The resource as of the selected revision: the fold of every event up to and including it. */
  selected: { revision: number; recorded_at: number; state: unknown };
}

export const TIMELINE_STREAM =
  'stream must be the stream of a project, job, job type, webhook or workspace (project-..., job-..., job-type-..., webhook-..., workspace-...)';
export const TIMELINE_REVISION = 'revision must be a revision of the stream (a non-negative integer)';
export const TIMELINE_NOT_FOUND = 'No resource has this stream';

/**
 * A resource's timeline for operators and auditors, across workspaces: its revisions (50 a page,
 * oldest first), each with the fields of the resource's state it changed (before and after), and
 * the resource's state as of one revision (default: the latest), folded from its events as the
 * temporal reads (`as_of`) are, never read from the read models. Secrets and hashes never appear;
 * sealed personal data is shown opened, or as erased.
 */
export class GetResourceTimelineQuery extends Query<ResourceTimeline> {
  constructor(
    readonly streamId: string,
    readonly options: { revision?: number; cursor?: string } = {},
  ) {
    super();
  }
}
