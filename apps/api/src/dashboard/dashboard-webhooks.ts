import { DeliveryAttemptView, TEST_EVENT_TYPE, WebhookPause } from '@app/application';
import { DomainError, WEBHOOK_EVENT_TYPES, WebhookView } from '@app/domain';
import { actorText, timeView } from './dashboard-view-data';

/** The fields of the webhook form, as typed (shown again with the errors). */
export interface WebhookForm {
  name: string;
  url: string;
  eventTypes: string[];
}

/** A form's errors by field (`form` for one that belongs to no field). */
export type FieldErrors = Partial<Record<'name' | 'url' | 'event_types' | 'since' | 'form', string>>;

export const EMPTY_WEBHOOK_FORM: WebhookForm = { name: '', url: '', eventTypes: [] };

/** How much of a receiver's answer a row of the deliveries table shows. */
const RESPONSE_SHOWN = 120;

/**
 * The field a command's validation message is about: the domain's messages name their field first
 * ("name must be …", "url must …", "event_types is required …", "Invalid event type: …").
 */
export function fieldOfValidation(error: unknown): FieldErrors | null {
  if (!(error instanceof DomainError) || error.kind !== 'validation') return null;
  const message = error.message;
  if (message.startsWith('name')) return { name: message };
  if (message.startsWith('url')) return { url: message };
  if (message.startsWith('event_types') || message.startsWith('Invalid event type')) return { event_types: message };
  return { form: message };
}

/** The event types of section 6 as checkboxes, those of the form ticked. */
export function eventTypeChoices(form: WebhookForm) {
  return WEBHOOK_EVENT_TYPES.map((type) => ({
    value: type,
    id: `event-${type.replace(/[._]/g, '-')}`,
    checked: form.eventTypes.includes(type),
  }));
}

/** A list row or the head of a subscription's page. */
export function webhookRow(webhook: WebhookView) {
  return {
    id: webhook.id,
    name: webhook.name,
    url: webhook.url,
    eventTypes: webhook.event_types,
    status: webhook.status,
    statusLabel: webhook.status === 'active' ? 'Active' : 'Paused',
    failureCount: webhook.failure_count,
    created: timeView(webhook.created),
    updated: timeView(webhook.updated),
    lastTriggered: webhook.last_triggered_at === null ? null : timeView(webhook.last_triggered_at),
  };
}

/** Why a subscription is paused, in words. */
export function pauseText(pause: WebhookPause, memberNames: ReadonlyMap<string, string>): string {
  switch (pause.reason) {
    case 'consecutive_failures':
      return `Paused by the service after ${pause.failure_count} consecutive failed deliveries`;
    case 'gone':
      return 'Paused by the service: the receiver answered 410 Gone';
    case 'by_hand':
      return `Paused by ${actorText(pause.actor, memberNames)}`;
  }
}

/**
 * The attempt log's rows. A resend is offered on the newest attempt of each queued delivery whose
 * schedule has ended (no retry due); test deliveries are never queued, so they have none.
 */
export function deliveryRows(deliveries: readonly DeliveryAttemptView[], mayResend: boolean) {
  const offered = new Set<string>();
  return deliveries.map((d) => {
    const first = !offered.has(d.delivery_id);
    offered.add(d.delivery_id);
    const response = d.response_body ?? d.error ?? '';
    return {
      deliveryId: d.delivery_id,
      eventType: d.event_type,
      attempt: d.attempt,
      at: timeView(d.attempted_at),
      succeeded: d.succeeded,
      resultLabel: d.succeeded ? 'Succeeded' : 'Failed',
      statusCode: d.response_status === null ? '—' : String(d.response_status),
      latency: `${d.duration_ms} ms`,
      response: response.length > RESPONSE_SHOWN ? `${response.slice(0, RESPONSE_SHOWN)}…` : response,
      truncated: response.length > RESPONSE_SHOWN,
      nextRetry: d.next_retry_at === null ? null : timeView(d.next_retry_at),
      resendable: mayResend && first && d.next_retry_at === null && d.event_type !== TEST_EVENT_TYPE,
    };
  });
}

/**
 * A `datetime-local` value (minutes, seconds optional) read as UTC, the zone every page shows; null
 * when it is not one. Its Date must give back the same fields, so 2026-02-30T10:00 is refused.
 */
export function parseUtcMinute(raw: string | undefined): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(raw ?? '');
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s || 0);
  const back = new Date(ms);
  const same =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === h &&
    back.getUTCMinutes() === mi;
  return same ? ms : null;
}

/** The `datetime-local` value of a time, in UTC, to the minute. */
export function utcMinuteValue(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

export const RECOVER_FORM_MESSAGES = {
  since: 'Enter a date and time (UTC), as YYYY-MM-DDTHH:MM',
  future: 'The time must not be in the future',
} as const;
