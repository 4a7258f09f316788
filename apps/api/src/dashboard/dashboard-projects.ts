import { HistoryEntry, HistoryPage } from '@app/application';
import {
  isStatus,
  Status,
  STATUS_MESSAGE,
  STATUS_VALUES,
  StatusLabels,
  statusLabelOf,
  validationError,
} from '@app/domain';
import { actorText, timeView } from './dashboard-view-data';

/** The longest search text the projects' list takes: a project's name is at most 100 characters. */
export const SEARCH_MAX = 100;
export const SEARCH_MESSAGE = `q must be at most ${SEARCH_MAX} characters`;

/** A status as the pages show it: the workspace's label, with the value for the badge's style. */
export function statusView(labels: StatusLabels, status: string) {
  return { value: status, label: statusLabelOf(labels, status) };
}

/** The statuses as the options of a filter, the chosen one selected, each under the workspace's label. */
export function statusOptions(labels: StatusLabels, chosen: Status | undefined) {
  return STATUS_VALUES.map((value) => ({ value, label: statusLabelOf(labels, value), selected: value === chosen }));
}

/** A status filter's one value: none (every status) or one of the 11; anything else is refused, naming the field. */
export function statusFilterOf(raw: unknown): Status | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!isStatus(raw)) throw validationError(STATUS_MESSAGE);
  return raw;
}

/** The projects' search text, trimmed; none when empty. */
export function searchOf(raw: unknown): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw validationError('q must be given once');
  const text = raw.trim();
  if ([...text].length > SEARCH_MAX) throw validationError(SEARCH_MESSAGE);
  return text === '' ? undefined : text;
}

/** A URL of the dashboard with these query parameters (those without a value left out). */
export function pageUrl(path: string, params: Record<string, string | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** What each event of a project's or a job's history did, in words. */
const EVENT_TITLES: Record<string, string> = {
  'project.created': 'Created',
  'project.updated': 'Changed',
  'project.deleted': 'Deleted',
  'project.creation_abandoned': 'Creation abandoned',
  'job.created': 'Created',
  'job.updated': 'Changed',
  'job.deleted': 'Deleted',
  'job.pilots_assigned': 'Pilots assigned',
  'job.pilots_unassigned': 'Pilots unassigned',
};

/** Fields of an event that name what it is about, not what changed: the page already says it. */
const CONTEXT_FIELDS = new Set(['id', 'workspace_id', 'project_id', 'job_id']);
/** Fields holding a time in milliseconds. */
const TIME_FIELDS = new Set(['created', 'updated', 'deleted', 'assigned', 'unassigned', 'abandoned']);
/** Fields holding member ids. */
const MEMBER_LIST_FIELDS = new Set(['pilot_ids']);
/** How long a value a timeline shows before cutting it short. */
const VALUE_SHOWN = 200;

export interface ChangeLine {
  field: string;
  value: string;
}

/** Every member id an entry names (its actor, assigned pilots), to look their names up once per page. */
export function membersNamed(entries: readonly HistoryEntry[]): string[] {
  const ids: string[] = [];
  for (const entry of entries) {
    if (entry.actor.type === 'member') ids.push(entry.actor.id);
    const change = entry.change as Record<string, unknown> | null;
    const createdBy = change?.created_by as { id?: unknown } | null | undefined;
    if (typeof createdBy?.id === 'string') ids.push(createdBy.id);
    for (const field of MEMBER_LIST_FIELDS) {
      const value = change?.[field];
      if (Array.isArray(value)) ids.push(...value.filter((v): v is string => typeof v === 'string'));
    }
  }
  return ids;
}

/**
 * The change an event made, as lines of field and value: an update's changed fields, or every
 * field an event recorded. Statuses under the workspace's labels, times in UTC, members by name.
 */
export function changeLines(
  change: unknown,
  labels: StatusLabels,
  memberNames: ReadonlyMap<string, string>,
): ChangeLine[] {
  if (change === null || typeof change !== 'object') return [];
  const record = change as Record<string, unknown>;
  const changes = record.changes;
  const fields =
    changes !== null && typeof changes === 'object' && !Array.isArray(changes)
      ? Object.entries(changes as Record<string, unknown>)
      : Object.entries(record).filter(([field]) => !CONTEXT_FIELDS.has(field) && !TIME_FIELDS.has(field));
  return fields.map(([field, value]) => ({ field, value: valueText(field, value, labels, memberNames) }));
}

function valueText(
  field: string,
  value: unknown,
  labels: StatusLabels,
  memberNames: ReadonlyMap<string, string>,
): string {
  if (value === null || value === undefined) return '(none)';
  if (field === 'status' && typeof value === 'string') return statusLabelOf(labels, value);
  if (MEMBER_LIST_FIELDS.has(field) && Array.isArray(value)) {
    return value.map((id) => memberNames.get(String(id)) ?? String(id)).join(', ');
  }
  if (field === 'created_by' && typeof value === 'object') {
    return createdByText(value as CreatedByLike, memberNames);
  }
  const text =
    typeof value === 'string'
      ? value
      : Array.isArray(value) && value.every((v) => typeof v !== 'object')
        ? value.join(', ')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value as number | boolean);
  return [...text].length > VALUE_SHOWN ? `${[...text].slice(0, VALUE_SHOWN).join('')}…` : text;
}

type CreatedByLike = { id?: unknown; email?: unknown; first_name?: unknown; last_name?: unknown };

/** Who created a project, as its `created_by` says: a member by name where the page knows it. */
export function createdByText(by: CreatedByLike | null, memberNames: ReadonlyMap<string, string>): string {
  if (!by) return 'Unknown';
  const id = typeof by.id === 'string' ? by.id : '';
  const known = memberNames.get(id);
  if (known) return known;
  const name = [by.first_name, by.last_name].filter((p) => typeof p === 'string' && p).join(' ');
  return name || (typeof by.email === 'string' ? by.email : id || 'Unknown');
}

/** One entry of a timeline: when, who, what, and the change itself. */
export function timelineEntry(entry: HistoryEntry, labels: StatusLabels, memberNames: ReadonlyMap<string, string>) {
  return {
    at: timeView(entry.recorded_at),
    actor: actorText(entry.actor, memberNames),
    title: EVENT_TITLES[entry.type] ?? entry.type,
    type: entry.type,
    lines: changeLines(entry.change, labels, memberNames),
  };
}

/**
 * A project's or a job's timeline as its page shows it: the entries, and the link to the next ones
 * (to the timeline's heading), keeping the page's other parameters.
 */
export function timelineView(
  history: HistoryPage,
  labels: StatusLabels,
  memberNames: ReadonlyMap<string, string>,
  path: string,
  keep: Record<string, string | undefined> = {},
) {
  return {
    timeline: history.history.map((entry) => timelineEntry(entry, labels, memberNames)),
    timelineNext: history.cursor
      ? pageUrl(path, { ...keep, history_cursor: history.cursor }) + '#timeline-title'
      : null,
  };
}
