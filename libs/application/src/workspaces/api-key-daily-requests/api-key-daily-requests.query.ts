import { Query } from '@nestjs/cqrs';

export interface ApiKeyDailyRequests {
  /** The UTC days, oldest first (their midnights, epoch milliseconds). */
  days: number[];
  /** Per key asked for: its requests on each of those days (0 where none). */
  requests: Map<string, number[]>;
}

/** Requests per key over the last `days` UTC days, today included (the API keys page's chart). */
export class ApiKeyDailyRequestsQuery extends Query<ApiKeyDailyRequests> {
  constructor(
    readonly keyIds: readonly string[],
    readonly days: number,
  ) {
    super();
  }
}
