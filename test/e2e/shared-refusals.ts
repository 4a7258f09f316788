/**
 * Refusals that projects and jobs share, as `it.each` rows: a case's name, the fields sent and
 * the 400's message (docs/api.md, Projects and Jobs).
 */
export type Refusal = [name: string, fields: object, message: string];

export const STATUS_MESSAGE =
  'status must be one of: draft, not_started, planned, in_progress, completed, on_hold, weather_delayed, technical_issues, cancelled, aborted, other';

/** The name a create requires: a string of 1 to 100 characters. */
export const CREATE_NAME_REFUSALS: Refusal[] = [
  ['missing name', { name: undefined }, 'name is required'],
  ['null name', { name: null }, 'name is required'],
  ['empty name', { name: '' }, 'name must be between 1 and 100 characters'],
  ['long name', { name: 'n'.repeat(101) }, 'name must be between 1 and 100 characters'],
  ['numeric name', { name: 7 }, 'name must be a string'],
];

/** The status (one of the statuses, with a reason of 1 to 200 characters when `other`) and the external id. */
export const STATUS_REFUSALS: Refusal[] = [
  ['unknown status', { status: 'done' }, STATUS_MESSAGE],
  ['other without reason', { status: 'other' }, 'other_status_reason is required when status is "other"'],
  [
    'long reason',
    { status: 'other', other_status_reason: 'r'.repeat(201) },
    'other_status_reason must be between 1 and 200 characters',
  ],
  ['long external_id', { external_id: 'e'.repeat(256) }, 'external_id must not exceed 255 characters'],
];
