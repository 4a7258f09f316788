import { Webhook } from 'standardwebhooks';
import { deliveryIdOf, generateWebhookSecret, WEBHOOK_SECRET_FORMAT, webhookHeaders } from './webhook-signature';

describe('Standard Webhooks signing', () => {
  it('makes secrets of whsec_ and lowercase hex, a multiple of 4 long', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(WEBHOOK_SECRET_FORMAT.test(secret)).toBe(true);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs so that the standardwebhooks library verifies the exact body', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({
      type: 'project.created',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: { id: 'p1', name: 'Ünïcode 🚁' },
    });
    const headers = webhookHeaders('msg_1', Math.floor(Date.now() / 1000), body, [secret]);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('p1', 'p2'), headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('signs with every secret given, space-separated (rotation overlap)', () => {
    const [next, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = webhookHeaders('msg_2', Math.floor(Date.now() / 1000), '{}', [next, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(next).verify('{}', headers)).not.toThrow();
    expect(() => new Webhook(previous).verify('{}', headers)).not.toThrow();
  });

  it('derives one delivery id per event and subscription', () => {
    expect(deliveryIdOf('e1', 'w1')).toBe(deliveryIdOf('e1', 'w1'));
    expect(deliveryIdOf('e1', 'w1')).not.toBe(deliveryIdOf('e1', 'w2'));
    expect(deliveryIdOf('e1', 'w1')).toMatch(/^msg_[0-9a-f]{32}$/);
  });
});
