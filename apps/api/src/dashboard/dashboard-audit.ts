import type { AuditEntry } from '@app/application';
import { EVENT_SCHEMAS } from '@app/domain';
import { parseUtcMinute } from './dashboard-webhooks';

/** The event types a workspace's trail may hold, for the type filter: every type this release knows. */
const EVENT_TYPES: readonly string[] = Object.keys(EVENT_SCHEMAS).sort();

export const auditEventTypes = (): readonly string[] => EVENT_TYPES;

export interface AuditFilterForm {
  type: string;
  actor: string;
  from: string;
  to: string;
}

export type AuditFormErrors = Partial<Record<'type' | 'actor' | 'from' | 'to', string>>;

export const AUDIT_FORM_MESSAGES = {
  type: 'Choose an event type from the list',
  actor: 'Choose someone from the list',
  time: 'Enter a date and time (UTC), as YYYY-MM-DDTHH:MM',
  order: 'The start must not be after the end',
} as const;

export interface ParsedAuditFilter {
  types?: string[];
  actor?: string;
  from?: number;
  to?: number;
}

/**
 * The trail's filter form as typed: each value must be one the page offers (an event type, a
 * member or key of the workspace, `operator`) or a UTC minute; a bad one is named next to its field.
 * `to` is inclusive of its whole minute.
 */
export function parseAuditForm(
  form: AuditFilterForm,
  actors: ReadonlySet<string>,
): { filter: ParsedAuditFilter; errors: AuditFormErrors } {
  const errors: AuditFormErrors = {};
  const filter: ParsedAuditFilter = {};
  if (form.type) {
    if (auditEventTypes().includes(form.type)) filter.types = [form.type];
    else errors.type = AUDIT_FORM_MESSAGES.type;
  }
  if (form.actor) {
    if (actors.has(form.actor)) filter.actor = form.actor;
    else errors.actor = AUDIT_FORM_MESSAGES.actor;
  }
  for (const bound of ['from', 'to'] as const) {
    if (!form[bound]) continue;
    const ms = parseUtcMinute(form[bound]);
    if (ms === null) errors[bound] = AUDIT_FORM_MESSAGES.time;
    else filter[bound] = bound === 'to' ? ms + 59_999 : ms;
  }
  if (filter.from !== undefined && filter.to !== undefined && filter.from > filter.to) {
    errors.to = AUDIT_FORM_MESSAGES.order;
  }
  return { filter, errors };
}

const ID = '([A-Za-z0-9_]+)';
const PROJECT_JOBS = new RegExp(`^project-jobs-${ID}$`);
const PROJECT = new RegExp(`^project-${ID}$`);
const JOB = new RegExp(`^job-${ID}$`);
const WEBHOOK = new RegExp(`^webhook-${ID}$`);

/**
 * The page of the dashboard an entry's resource has, if any: where its link goes. A job's page
 * sits under its project, which every job event names; a project's job bookkeeping goes to the
 * project; API key events (on the workspace's stream) to the keys page.
 */
export function resourceLink(
  entry: Pick<AuditEntry, 'type' | 'stream' | 'change'>,
): { href: string; text: string } | null {
  const change = (entry.change ?? {}) as Record<string, unknown>;
  let match: RegExpExecArray | null;
  if ((match = PROJECT_JOBS.exec(entry.stream) ?? PROJECT.exec(entry.stream))) {
    return { href: `/dashboard/projects/${match[1]}`, text: `Project ${match[1]}` };
  }
  if ((match = JOB.exec(entry.stream))) {
    const projectId =
      typeof change.project_id === 'string' && /^[A-Za-z0-9_]+$/.test(change.project_id) ? change.project_id : null;
    return projectId ? { href: `/dashboard/projects/${projectId}/jobs/${match[1]}`, text: `Job ${match[1]}` } : null;
  }
  if ((match = WEBHOOK.exec(entry.stream))) {
    return { href: `/dashboard/webhooks/${match[1]}`, text: `Webhook ${match[1]}` };
  }
  if (entry.type.startsWith('workspace.api_key_')) return { href: '/dashboard/api-keys', text: 'API keys' };
  return null;
}

/** The trail's query string for these form values (empty ones left out), with extra parameters. */
export function auditQuery(form: AuditFilterForm, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...form, ...extra })) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
