import {
  ClaimedDelivery,
  DeliveryAttempt,
  SettleRequest,
  SettleResult,
  Settlement,
  StoredAttempt,
} from '@app/application/ports';

/** The fields of a queued delivery that every stored queue keeps, by their stored names. */
export interface DeliveryRecord {
  webhook_id: string;
  workspace_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  created_at: number;
  attempts: number;
  round_start: number;
  next_attempt_at: number;
}

/** The fields of a recorded attempt that every stored queue keeps; `Flag` is how it stores a boolean. */
export interface AttemptRecord<Flag> {
  delivery_id: string;
  webhook_id: string;
  workspace_id: string;
  event_type: string;
  attempt: number;
  attempted_at: number;
  duration_ms: number;
  succeeded: Flag;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  next_attempt_at: number | null;
}

/** A delivery as its claim hands it out: leased until its (moved) next attempt time. */
export function claimedDelivery(id: string, record: DeliveryRecord, claimToken: string): ClaimedDelivery {
  return {
    id,
    webhookId: record.webhook_id,
    workspaceId: record.workspace_id,
    eventId: record.event_id,
    eventType: record.event_type,
    payload: record.payload,
    createdAt: record.created_at,
    nextAttemptAt: record.next_attempt_at,
    attempts: record.attempts,
    roundStart: record.round_start,
    claimToken,
    leaseUntil: record.next_attempt_at,
  };
}

/** A recorded attempt as the attempt log lists it. */
export function storedAttempt(seq: number, record: AttemptRecord<boolean>): StoredAttempt {
  return {
    seq,
    deliveryId: record.delivery_id,
    webhookId: record.webhook_id,
    workspaceId: record.workspace_id,
    eventType: record.event_type,
    attempt: record.attempt,
    attemptedAt: record.attempted_at,
    durationMs: record.duration_ms,
    succeeded: record.succeeded,
    responseStatus: record.response_status,
    responseBody: record.response_body,
    error: record.error,
    nextAttemptAt: record.next_attempt_at,
  };
}

/** A queue that settles in batches: settling one delivery is a batch of one. */
export abstract class BatchSettlingQueue {
  abstract settleMany(requests: readonly SettleRequest[]): Promise<SettleResult>;

  async settle(
    claim: { id: string; claimToken: string },
    attempt: DeliveryAttempt | null,
    settlement: Settlement,
  ): Promise<boolean> {
    return (await this.settleMany([{ claim, attempt, settlement }])).settled[0];
  }
}
