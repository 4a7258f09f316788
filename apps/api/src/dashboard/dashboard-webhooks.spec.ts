import { validationError, notFound } from '@app/domain';
import { deliveryRows, fieldOfValidation, parseUtcMinute, pauseText, utcMinuteValue } from './dashboard-webhooks';

describe('the dashboard’s webhook pages', () => {
  describe('fieldOfValidation', () => {
    it('puts each command message next to the field it names', () => {
      expect(fieldOfValidation(validationError('name must be between 2 and 100 characters'))).toEqual({
        name: 'name must be between 2 and 100 characters',
      });
      expect(fieldOfValidation(validationError('url must start with https://'))).toEqual({
        url: 'url must start with https://',
      });
      expect(fieldOfValidation(validationError('Invalid event type: job_type.updated'))).toEqual({
        event_types: 'Invalid event type: job_type.updated',
      });
      expect(fieldOfValidation(validationError('event_types must be a non-empty array'))).toEqual({
        event_types: 'event_types must be a non-empty array',
      });
      expect(fieldOfValidation(validationError('Something else'))).toEqual({ form: 'Something else' });
    });

    it('leaves anything but a validation error to the error pages', () => {
      expect(fieldOfValidation(notFound('Webhook not found'))).toBeNull();
      expect(fieldOfValidation(new Error('boom'))).toBeNull();
    });
  });

  describe('parseUtcMinute', () => {
    it('reads a datetime-local value as UTC', () => {
      expect(parseUtcMinute('2026-03-01T10:15')).toBe(Date.UTC(2026, 2, 1, 10, 15));
      expect(parseUtcMinute('2026-03-01T10:15:30')).toBe(Date.UTC(2026, 2, 1, 10, 15, 30));
      expect(utcMinuteValue(Date.UTC(2026, 2, 1, 10, 15, 59))).toBe('2026-03-01T10:15');
    });

    it('refuses what is not a date and time, and dates that do not exist', () => {
      for (const raw of [
        undefined,
        '',
        'yesterday',
        '2026-03-01',
        '2026-03-01 10:15',
        '2026-02-30T10:00',
        '2026-01-01T24:00',
        '2026-01-01T10:15Z',
      ])
        expect({ raw, parsed: parseUtcMinute(raw) }).toEqual({ raw, parsed: null });
    });
  });

  it('offers a resend on the latest attempt of a settled, queued delivery only', () => {
    const attempt = (delivery_id: string, attempt: number, extra: object = {}) => ({
      delivery_id,
      event_type: 'project.created',
      attempt,
      attempted_at: 1_000 * attempt,
      succeeded: false,
      response_status: 500,
      response_body: 'x'.repeat(200),
      duration_ms: 12,
      error: null,
      next_retry_at: null,
      ...extra,
    });
    const rows = deliveryRows(
      [
        attempt('msg_a', 2),
        attempt('msg_a', 1, { next_retry_at: 1_500 }),
        attempt('msg_b', 1, { next_retry_at: 9_000 }),
        attempt('msg_t', 1, { event_type: 'webhook.test', succeeded: true, response_status: 204, response_body: '' }),
      ],
      true,
    );
    expect(rows.map((r) => r.resendable)).toEqual([true, false, false, false]);
    expect(rows[0]).toMatchObject({ statusCode: '500', latency: '12 ms', truncated: true, resultLabel: 'Failed' });
    expect(rows[0].response).toHaveLength(121);
    expect(deliveryRows([attempt('msg_a', 1)], false)[0].resendable).toBe(false);
  });

  it('says why a webhook is paused', () => {
    const names = new Map([['usr_1', 'Rita Root']]);
    expect(pauseText({ reason: 'by_hand', at: 0, actor: { type: 'member', id: 'usr_1' } }, names)).toBe(
      'Paused by Rita Root',
    );
    expect(pauseText({ reason: 'consecutive_failures', at: 0, failure_count: 5 }, names)).toBe(
      'Paused by the service after 5 consecutive failed deliveries',
    );
    expect(pauseText({ reason: 'gone', at: 0, failure_count: 1 }, names)).toBe(
      'Paused by the service: the receiver answered 410 Gone',
    );
  });
});
