import type { AuditEntry, AuditFilter, ExportFilter, ExportSource, FieldChange } from '@app/application';
import type { Actor } from '@app/domain';
import { auditEventTypes } from '../dashboard/dashboard-audit';
import { parseUtcMinute } from '../dashboard/dashboard-webhooks';
import { timeView } from '../dashboard/dashboard-view-data';

/** The feed's filter form as typed (every value a string, empty for no filter). */
export interface FeedForm {
  workspace: string;
  type: string;
  actor: string;
  request_id: string;
  from: string;
  to: string;
}

export type FeedField = keyof FeedForm;
export type FeedErrors = Partial<Record<FeedField, string>>;

/** Each message names its field as the form labels it, and its query parameter. */
export const FEED_MESSAGES = {
  workspace: 'Workspace (workspace) must be a workspace id, ws_...',
  type: 'Event type (type) must be one of the listed event types',
  actor: 'Who (actor) must be operator, a member id (usr_...) or an API key id (key_...)',
  request_id: 'Request id (request_id) must be 1 to 200 printable characters without spaces',
  time: 'must be a date and time in UTC, as YYYY-MM-DDTHH:MM',
  order: 'To (to) must not be before From (from)',
} as const;

const WORKSPACE = /^ws_[A-Za-z0-9]{1,64}$/;
const ACTOR = /^(?:operator|(?:usr|key)_[A-Za-z0-9]{1,64})$/;
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;
const FIELDS: readonly FeedField[] = ['workspace', 'type', 'actor', 'request_id', 'from', 'to'];

const text = (raw: unknown): string => (typeof raw === 'string' ? raw.trim() : '');

const LABELS: Record<FeedField, string> = {
  workspace: 'Workspace',
  type: 'Event type',
  actor: 'Who',
  request_id: 'Request id',
  from: 'From',
  to: 'To',
};

/** The form's values as typed, and a refusal for each field given more than once. */
export function feedFormOf(query: Record<string, unknown>): { form: FeedForm; errors: FeedErrors } {
  const form = {} as FeedForm;
  const errors: FeedErrors = {};
  for (const name of FIELDS) {
    form[name] = text(query[name]);
    if (Array.isArray(query[name])) errors[name] = `${LABELS[name]} (${name}) must be given once`;
  }
  return { form, errors };
}

/** What the feed's filters select: the workspace (none: every workspace) and the rest. */
export interface FeedFilter {
  workspaceId?: string;
  types?: string[];
  actor?: string;
  requestId?: string;
  from?: number;
  to?: number;
}

/**
 * The feed's form checked: each value one the page offers (an event type), an id of the right
 * shape, or a UTC minute; a bad one is named next to its field. `to` includes its whole minute.
 */
export function parseFeedForm(form: FeedForm, repeated: FeedErrors = {}): { filter: FeedFilter; errors: FeedErrors } {
  const errors: FeedErrors = { ...repeated };
  const filter: FeedFilter = {};
  if (form.workspace && !errors.workspace) {
    if (WORKSPACE.test(form.workspace)) filter.workspaceId = form.workspace;
    else errors.workspace = FEED_MESSAGES.workspace;
  }
  if (form.type && !errors.type) {
    if (auditEventTypes().includes(form.type)) filter.types = [form.type];
    else errors.type = FEED_MESSAGES.type;
  }
  if (form.actor && !errors.actor) {
    if (ACTOR.test(form.actor)) filter.actor = form.actor;
    else errors.actor = FEED_MESSAGES.actor;
  }
  if (form.request_id && !errors.request_id) {
    if (REQUEST_ID.test(form.request_id)) filter.requestId = form.request_id;
    else errors.request_id = FEED_MESSAGES.request_id;
  }
  for (const bound of ['from', 'to'] as const) {
    if (!form[bound] || errors[bound]) continue;
    const ms = parseUtcMinute(form[bound]);
    if (ms === null) errors[bound] = `${bound === 'from' ? 'From (from)' : 'To (to)'} ${FEED_MESSAGES.time}`;
    else filter[bound] = bound === 'to' ? ms + 59_999 : ms;
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) errors.to = FEED_MESSAGES.order;
  return { filter, errors };
}

/** A page of the feed, newest first. */
export function feedQuery(filter: FeedFilter, cursor: string | undefined): AuditFilter {
  return { ...filter, order: 'desc', cursor };
}

/** The export of the same view: a stream's, a workspace's or every workspace's events, resumable after a position. */
export function exportOf(
  filter: FeedFilter,
  stream: string | undefined,
  after: number | undefined,
): { source: ExportSource; filter: ExportFilter } {
  const { workspaceId, ...rest } = filter;
  const source: ExportSource = stream ? { stream } : workspaceId ? { workspaceId } : { allWorkspaces: true };
  return { source, filter: { ...rest, after } };
}

export const AFTER_MESSAGE =
  'after must be a store position (a non-negative integer): the position of the last line received';
export const STREAM_MESSAGE = 'stream must be a stream id (letters, digits, _ and -)';

export function afterOf(raw: unknown): { after?: number; error?: string } {
  const value = text(raw);
  if (value === '') return {};
  return /^\d{1,15}$/.test(value) ? { after: Number(value) } : { error: AFTER_MESSAGE };
}

export function streamOf(raw: unknown): { stream?: string; error?: string } {
  const value = text(raw);
  if (value === '') return {};
  return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? { stream: value } : { error: STREAM_MESSAGE };
}

/** A console URL with these query parameters (empty ones left out). */
export function consoleUrl(path: string, params: Record<string, string | number | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const q = query.toString();
  return q ? `${path}?${q}` : path;
}

/** Streams that hold a resource with a timeline (a project's job bookkeeping does not). */
const RESOURCE_STREAM = /^(?:project|job|job-type|webhook|workspace)-[A-Za-z0-9_]+$/;

export const timelineHref = (stream: string, revision?: number): string | null =>
  RESOURCE_STREAM.test(stream) && !stream.startsWith('project-jobs-')
    ? consoleUrl(`/console/streams/${encodeURIComponent(stream)}`, { revision })
    : null;

export const requestHref = (requestId: string): string => `/console/requests/${encodeURIComponent(requestId)}`;

/** Who recorded an event, in words, with the value the feed's actor filter takes. */
export function actorView(actor: Actor | null): { text: string; filter: string | null } {
  if (!actor) return { text: 'Unknown', filter: null };
  switch (actor.type) {
    case 'operator':
      return { text: actor.id ? `Operator (${actor.id})` : 'Operator (admin token)', filter: 'operator' };
    case 'api_key':
      return { text: `API key “${actor.name}” (${actor.id})`, filter: actor.id };
    case 'member':
      return { text: `Member ${actor.id}`, filter: actor.id };
  }
}

/** An entry of the feed or of a request as the pages show it, with its links. */
export function entryView(entry: AuditEntry) {
  return {
    type: entry.type,
    at: timeView(entry.recorded_at),
    position: entry.position,
    workspace: entry.workspace_id,
    stream: entry.stream,
    revision: entry.revision,
    actor: actorView(entry.actor),
    requestId: entry.request_id,
    requestHref: entry.request_id ? requestHref(entry.request_id) : null,
    timelineHref: timelineHref(entry.stream, entry.revision),
  };
}

/** How long a value a page shows before cutting it short. */
const VALUE_SHOWN = 300;

export function valueText(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (value === null) return '(none)';
  const shown = typeof value === 'string' ? value : JSON.stringify(value);
  return [...shown].length > VALUE_SHOWN ? `${[...shown].slice(0, VALUE_SHOWN).join('')}…` : shown;
}

/** Fields holding a time in milliseconds, shown in UTC with the number itself (the `as_of` it stands for). */
const TIME_FIELD = /(?:^|\.)(?:created|updated|deleted|abandoned|paused_at|assigned|unassigned)$/;

export function fieldValueText(field: string, value: unknown): string {
  if (TIME_FIELD.test(field) && typeof value === 'number' && Number.isSafeInteger(value) && value > 0) {
    return `${timeView(value).text} (${value})`;
  }
  return valueText(value);
}

export const diffView = (diff: readonly FieldChange[]) =>
  diff.map((c) => ({
    field: c.field,
    before: fieldValueText(c.field, c.before),
    after: fieldValueText(c.field, c.after),
  }));

/** A state as lines of field and value (nested objects one level down), for the "as of" panel. */
export function stateLines(state: unknown): { field: string; value: string }[] {
  if (state === null || typeof state !== 'object' || Array.isArray(state))
    return [{ field: 'state', value: valueText(state) }];
  const lines: { field: string; value: string }[] = [];
  for (const [key, value] of Object.entries(state)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value))
        lines.push({ field: `${key}.${inner}`, value: fieldValueText(`${key}.${inner}`, innerValue) });
    } else {
      lines.push({ field: key, value: fieldValueText(key, value) });
    }
  }
  return lines;
}
