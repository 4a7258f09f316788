import { Status } from '../shared/status';

/**
 * Display names of the job and project statuses, per workspace (docs/dashboard.md, Status display
 * names). Only the dashboard shows them: the API always answers the predefined values.
 */
export const DEFAULT_STATUS_LABELS: Readonly<Record<Status, string>> = {
  draft: 'Draft',
  not_started: 'Not started',
  planned: 'Planned',
  in_progress: 'In progress',
  completed: 'Completed',
  on_hold: 'On hold',
  weather_delayed: 'Weather delayed',
  technical_issues: 'Technical issues',
  cancelled: 'Cancelled',
  aborted: 'Aborted',
  other: 'Other',
};

export const STATUS_LABEL_LIMITS = { min: 1, max: 40 } as const;

/** A workspace's own labels: only the statuses it renamed. */
export type StatusLabels = Partial<Record<Status, string>>;

/** Control characters (C0, DEL, C1) and the line and paragraph separators: a label is one line of text. */
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export const STATUS_LABEL_MESSAGES = {
  length: (status: string) =>
    `label for ${status} must be between ${STATUS_LABEL_LIMITS.min} and ${STATUS_LABEL_LIMITS.max} characters`,
  control: (status: string) => `label for ${status} must not contain control characters`,
  notText: (status: string) => `label for ${status} must be a string`,
  unknownStatus: (status: string) => `${JSON.stringify(status).slice(0, 60)} is not a status`,
} as const;

/**
 * A label as given for a status: trimmed; empty (or the default label itself) means the default,
 * answered as null. What is wrong with it, naming the status, when it cannot be a label.
 */
export function statusLabelInput(
  status: Status,
  raw: unknown,
): { label: string | null; problem?: undefined } | { problem: string } {
  if (raw === null || raw === undefined) return { label: null };
  if (typeof raw !== 'string') return { problem: STATUS_LABEL_MESSAGES.notText(status) };
  const label = raw.trim();
  if (label === '' || label === DEFAULT_STATUS_LABELS[status]) return { label: null };
  if (CONTROL.test(label)) return { problem: STATUS_LABEL_MESSAGES.control(status) };
  if ([...label].length > STATUS_LABEL_LIMITS.max) return { problem: STATUS_LABEL_MESSAGES.length(status) };
  return { label };
}

/** The label the dashboard shows for a status: the workspace's own, else the default. */
export function statusLabelOf(labels: StatusLabels | null | undefined, status: string): string {
  return labels?.[status as Status] ?? DEFAULT_STATUS_LABELS[status as Status] ?? status;
}
