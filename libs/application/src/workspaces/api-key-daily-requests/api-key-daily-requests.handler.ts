import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DAY_MS, dayOf } from '../../ports/api-key-usage-store.port';
import { CLOCK, Clock } from '../../ports/clock.port';
import { ApiKeyUsageRecorder } from '../api-key-usage-recorder';
import { ApiKeyDailyRequests, ApiKeyDailyRequestsQuery } from './api-key-daily-requests.query';

/** The keys are the caller's to choose within its workspace (the keys its page lists). */
@QueryHandler(ApiKeyDailyRequestsQuery)
export class ApiKeyDailyRequestsHandler implements IQueryHandler<ApiKeyDailyRequestsQuery, ApiKeyDailyRequests> {
  constructor(
    private readonly usage: ApiKeyUsageRecorder,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ keyIds, days }: ApiKeyDailyRequestsQuery): Promise<ApiKeyDailyRequests> {
    const today = dayOf(this.clock.now());
    const first = today - (days - 1) * DAY_MS;
    const dayList = Array.from({ length: days }, (_, i) => first + i * DAY_MS);
    const requests = new Map(keyIds.map((id) => [id, dayList.map(() => 0)]));
    for (const row of await this.usage.dailyRequests(keyIds, first)) {
      const index = (row.day - first) / DAY_MS;
      const counts = requests.get(row.keyId);
      if (counts && index >= 0 && index < days) counts[index] = row.requests;
    }
    return { days: dayList, requests };
  }
}
