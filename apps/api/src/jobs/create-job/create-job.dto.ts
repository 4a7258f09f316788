import type { CaptureType, JobPattern, Priority, RecurringFrequency, Status } from '@app/domain';
import { OnCreate } from '../job-field-rules';

/**
 * POST /projects/{projectId}/jobs (docs/api.md, Jobs). Each field's rules are declared once, in
 * JOB_FIELDS (../job-field-rules.ts), for create and update. Fields in the order of the API
 * reference's create messages (section 7), then the remaining fields in the order of the request
 * body list. Per-field rules only: rules that relate fields (end after start, coordinates together,
 * no interval with flexible, the 6-month limit) and the job type lookup are the decider's and the
 * handler's. On create, null means "not given" for every optional field.
 */
export class CreateJobDto {
  @OnCreate('name') name: string = undefined as never;
  @OnCreate('type') type: string = undefined as never;
  @OnCreate('job_pattern') job_pattern: JobPattern = undefined as never;
  @OnCreate('start_date') start_date: string = undefined as never;
  @OnCreate('end_date') end_date?: string | null = undefined;
  @OnCreate('latitude') latitude?: number | null = undefined;
  @OnCreate('longitude') longitude?: number | null = undefined;
  @OnCreate('status') status?: Status = undefined;
  @OnCreate('other_status_reason') other_status_reason?: string = undefined;
  @OnCreate('external_id') external_id?: string | null = undefined;
  @OnCreate('priority') priority?: Priority = undefined;
  @OnCreate('description') description?: string | null = undefined;
  @OnCreate('inspection_notes') inspection_notes?: string | null = undefined;
  @OnCreate('capture_types') capture_types?: CaptureType[] | null = undefined;
  @OnCreate('recurring_frequency') recurring_frequency?: RecurringFrequency | null = undefined;
  @OnCreate('recurring_interval') recurring_interval?: number | null = undefined;
  @OnCreate('selected_days_of_week') selected_days_of_week?: number[] | null = undefined;
  @OnCreate('week_of_month') week_of_month?: number | null = undefined;
  @OnCreate('weeks_of_month') weeks_of_month?: number[] | null = undefined;
  @OnCreate('flights_per_occurrence') flights_per_occurrence?: number | null = undefined;
}
