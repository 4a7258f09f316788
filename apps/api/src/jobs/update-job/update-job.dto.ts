import type { CaptureType, JobPattern, Priority, RecurringFrequency, Status } from '@app/domain';
import { OnUpdate } from '../job-field-rules';

/**
 * PATCH /projects/{projectId}/jobs/{jobId} (docs/api.md, Jobs): every field optional, only supplied
 * ones change. The rules are create's (JOB_FIELDS, ../job-field-rules.ts); null clears exactly the
 * fields the API reference lists as nullable on update (end_date, the coordinates, capture_types,
 * external_id and the recurring fields); for the others null is refused like any other wrong type.
 * Fields in the order of the API reference's update messages.
 */
export class UpdateJobDto {
  @OnUpdate('name') name?: string = undefined;
  @OnUpdate('status') status?: Status = undefined;
  @OnUpdate('priority') priority?: Priority = undefined;
  @OnUpdate('start_date') start_date?: string = undefined;
  @OnUpdate('end_date') end_date?: string | null = undefined;
  @OnUpdate('latitude') latitude?: number | null = undefined;
  @OnUpdate('longitude') longitude?: number | null = undefined;
  @OnUpdate('other_status_reason') other_status_reason?: string = undefined;
  @OnUpdate('type') type?: string = undefined;
  @OnUpdate('job_pattern') job_pattern?: JobPattern = undefined;
  @OnUpdate('description') description?: string = undefined;
  @OnUpdate('inspection_notes') inspection_notes?: string = undefined;
  @OnUpdate('external_id') external_id?: string | null = undefined;
  @OnUpdate('capture_types') capture_types?: CaptureType[] | null = undefined;
  @OnUpdate('recurring_frequency') recurring_frequency?: RecurringFrequency | null = undefined;
  @OnUpdate('recurring_interval') recurring_interval?: number | null = undefined;
  @OnUpdate('selected_days_of_week') selected_days_of_week?: number[] | null = undefined;
  @OnUpdate('week_of_month') week_of_month?: number | null = undefined;
  @OnUpdate('weeks_of_month') weeks_of_month?: number[] | null = undefined;
  @OnUpdate('flights_per_occurrence') flights_per_occurrence?: number | null = undefined;
}
