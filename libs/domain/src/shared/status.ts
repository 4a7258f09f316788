/** Status values shared by projects and jobs (docs/api.md, Statuses). */
export const STATUS_VALUES = [
  'draft',
  'not_started',
  'planned',
  'in_progress',
  'completed',
  'on_hold',
  'weather_delayed',
  'technical_issues',
  'cancelled',
  'aborted',
  'other',
] as const;

export type Status = (typeof STATUS_VALUES)[number];

export const isStatus = (value: unknown): value is Status =>
  typeof value === 'string' && (STATUS_VALUES as readonly string[]).includes(value);

export const STATUS_MESSAGE = `status must be one of: ${STATUS_VALUES.join(', ')}`;
/** `other_status_reason`: required with status `other`, kept in the history. */
export const OTHER_STATUS_REASON_LIMITS = { min: 1, max: 200 } as const;
export const OTHER_STATUS_REASON_REQUIRED = 'other_status_reason is required when status is "other"';
export const OTHER_STATUS_REASON_LENGTH = 'other_status_reason must be between 1 and 200 characters';
