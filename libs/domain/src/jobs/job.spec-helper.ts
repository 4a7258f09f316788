import { JobSchedule } from './occurrence-schedule';

/**
 * The recurring fields of a job that does not repeat, as the history records them and the API
 * shows them: every one null. Shared by the specs that write or expect such a job.
 */
export const NOT_RECURRING = {
  recurring_frequency: null,
  recurring_interval: null,
  selected_days_of_week: null,
  week_of_month: null,
  weeks_of_month: null,
  flights_per_occurrence: null,
} as const satisfies Partial<JobSchedule>;
