import { AuditFilter, ExportFilter } from '@app/application';
import { validationError } from '@app/domain';
import { queryMillis, singleQueryValue } from '../http/query-params';

export const EVENT_TYPES_FILTER = 'type must be a comma-separated list of event types';
export const ACTOR_FILTER = 'actor must be operator, a member id (usr_...) or an API key id (key_...)';
export const REQUEST_ID_FILTER = 'request_id must be 1 to 200 printable characters';
export const WORKSPACE_FILTER = 'workspace must be a workspace id (ws_...)';
export const ORDER_FILTER = 'order must be asc or desc';
export const AFTER_FILTER = 'after must be a store position (a non-negative integer)';

const EVENT_TYPE = /^[a-z_]+\.[a-z_]+$/;
const ACTOR = /^(?:operator|(?:usr|key)_[A-Za-z0-9]{1,64})$/;
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/;
const WORKSPACE = /^ws_[A-Za-z0-9]{1,64}$/;

/** The query parameters every view of the audit feed takes (feed, export, dashboard trail). */
export interface AuditQueryParams {
  workspace?: unknown;
  type?: unknown;
  actor?: unknown;
  request_id?: unknown;
  from?: unknown;
  to?: unknown;
  order?: unknown;
  cursor?: unknown;
  after?: unknown;
}

/** Absent or empty: no filter; anything else must match or is refused naming the parameter. */
function matching(name: string, value: unknown, pattern: RegExp, message: string): string | undefined {
  const text = singleQueryValue(name, value);
  if (text === undefined || text === '') return undefined;
  if (!pattern.test(text)) throw validationError(message);
  return text;
}

export function eventTypesParam(value: unknown): string[] | undefined {
  const types = singleQueryValue('type', value)
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (types?.some((t) => !EVENT_TYPE.test(t))) throw validationError(EVENT_TYPES_FILTER);
  return types?.length ? types : undefined;
}

/** The filters shared by the feed and the export (no workspace, order or position). */
function commonFilter(params: AuditQueryParams) {
  return {
    types: eventTypesParam(params.type),
    actor: matching('actor', params.actor, ACTOR, ACTOR_FILTER),
    requestId: matching('request_id', params.request_id, REQUEST_ID, REQUEST_ID_FILTER),
    from: queryMillis('from', params.from),
    to: queryMillis('to', params.to),
  };
}

export function workspaceParam(value: unknown): string | undefined {
  return matching('workspace', value, WORKSPACE, WORKSPACE_FILTER);
}

/** A page of the feed: `workspaceId` is the caller's own (dashboard) or the `workspace` parameter. */
export function auditFilterOf(params: AuditQueryParams, workspaceId: string | undefined): AuditFilter {
  const order = singleQueryValue('order', params.order);
  if (order !== undefined && order !== '' && order !== 'asc' && order !== 'desc') throw validationError(ORDER_FILTER);
  const cursor = singleQueryValue('cursor', params.cursor);
  return {
    ...commonFilter(params),
    workspaceId,
    order: order === 'desc' ? 'desc' : 'asc',
    cursor: cursor === '' ? undefined : cursor,
  };
}

export function exportFilterOf(params: AuditQueryParams): ExportFilter {
  const after = singleQueryValue('after', params.after);
  if (after !== undefined && !/^\d{1,15}$/.test(after)) throw validationError(AFTER_FILTER);
  return { ...commonFilter(params), after: after === undefined ? undefined : Number(after) };
}
