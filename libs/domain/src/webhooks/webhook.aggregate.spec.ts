import { fold } from '../shared/decider';
import { spec } from '../shared/given-when-then.spec-helper';
import {
  invalidEventType,
  signingSecrets,
  WEBHOOK_MESSAGES,
  WEBHOOK_NOT_FOUND,
  WebhookCommand,
  webhookDecider,
  WebhookState,
  webhookView,
} from './webhook.aggregate';
import { WebhookEvent } from './webhook.events';

const { given } = spec(webhookDecider);
const createdBy = { id: 'key1', email: null, first_name: 'Bot', last_name: null };
const base = { id: 'wh1', workspace_id: 'ws1' };
const create: WebhookCommand = {
  type: 'CreateWebhook',
  id: 'wh1',
  workspaceId: 'ws1',
  name: 'Ops feed',
  url: 'https://hooks.example.com/in',
  eventTypes: ['project.created', 'project.updated'],
  sealedSecret: 'sealed-1',
  createdBy,
  now: 10,
};
const created: WebhookEvent = {
  type: 'webhook.created',
  data: {
    ...base,
    name: 'Ops feed',
    url: 'https://hooks.example.com/in',
    event_types: ['project.created', 'project.updated'],
    sealed_secret: 'sealed-1',
    created_by: createdBy,
    created: 10,
  },
};
const update = (changes: Extract<WebhookCommand, { type: 'UpdateWebhook' }>['changes']): WebhookCommand => ({
  type: 'UpdateWebhook',
  changes,
  now: 20,
});
const updated = (changes: object): WebhookEvent => ({ type: 'webhook.updated', data: { ...base, changes, updated: 20 } });
const attempt = (overrides: Partial<Extract<WebhookCommand, { type: 'RecordDeliveryAttempt' }>> = {}): WebhookCommand => ({
  type: 'RecordDeliveryAttempt',
  deliveryId: 'msg_1',
  attempt: 1,
  succeeded: false,
  gone: false,
  responseStatus: 500,
  test: false,
  attemptedAt: 30,
  pauseAfterFailures: 3,
  ...overrides,
});
const attempted = (failureCount: number, overrides: object = {}): WebhookEvent => ({
  type: 'webhook.delivery_attempted',
  data: {
    ...base,
    delivery_id: 'msg_1',
    attempt: 1,
    succeeded: false,
    response_status: 500,
    test: false,
    attempted_at: 30,
    failure_count: failureCount,
    ...overrides,
  },
});
const stateAfter = (...events: WebhookEvent[]) => fold(webhookDecider, events) as Extract<WebhookState, { status: 'live' }>;

describe('Webhook aggregate', () => {
  describe('create', () => {
    it('records the subscription, active, with the sealed secret only', () => {
      given().when(create).then([created]);
      const state = stateAfter(created);
      expect(webhookView('wh1', state.fields)).toEqual({
        id: 'wh1',
        name: 'Ops feed',
        url: 'https://hooks.example.com/in',
        event_types: ['project.created', 'project.updated'],
        status: 'active',
        failure_count: 0,
        created: 10,
        updated: 10,
        created_by: createdBy,
        last_triggered_at: null,
      });
    });

    it('keeps a repeated event type once', () => {
      given()
        .when({ ...create, eventTypes: ['project.created', 'project.created', 'job.deleted'] })
        .then([{ ...created, data: { ...created.data, event_types: ['project.created', 'job.deleted'] } } as WebhookEvent]);
    });

    it('refuses what the spec refuses', () => {
      given().when({ ...create, name: 'x' }).thenFails(WEBHOOK_MESSAGES.nameLength);
      given().when({ ...create, url: 'http://hooks.example.com' }).thenFails(WEBHOOK_MESSAGES.urlHttps);
      given().when({ ...create, url: 'https://' }).thenFails(WEBHOOK_MESSAGES.urlInvalid);
      given().when({ ...create, eventTypes: [] }).thenFails(WEBHOOK_MESSAGES.eventTypesRequired);
      given()
        .when({ ...create, eventTypes: ['project.created', 'job_type.updated' as never] })
        .thenFails(invalidEventType('job_type.updated'));
    });
  });

  describe('update', () => {
    it('records only the supplied fields that change', () => {
      given(created).when(update({ name: 'Renamed', url: created.data.url })).then([updated({ name: 'Renamed' })]);
      given(created).when(update({ event_types: ['project.created', 'project.updated'] })).thenNothing();
      given(created).when(update({ status: 'paused' })).then([updated({ status: 'paused' })]);
    });

    it('resets failure_count when status is set to active, whatever the status was', () => {
      const failed = attempted(2);
      given(created, failed).when(update({ status: 'active' })).then([updated({ failure_count: 0 })]);
      const paused: WebhookEvent = { type: 'webhook.auto_paused', data: { ...base, reason: 'consecutive_failures', failure_count: 3, updated: 31 } };
      given(created, attempted(3), paused).when(update({ status: 'active' })).then([updated({ status: 'active', failure_count: 0 })]);
      given(created).when(update({ status: 'active' })).thenNothing();
    });

    it('uses the update messages', () => {
      given(created).when(update({ url: 'ftp://x' })).thenFails(WEBHOOK_MESSAGES.urlUpdate);
      given(created).when(update({ event_types: [] })).thenFails(WEBHOOK_MESSAGES.eventTypesUpdate);
      given(created).when(update({ status: 'off' as never })).thenFails(WEBHOOK_MESSAGES.status);
    });
  });

  describe('delivery attempts', () => {
    it('counts consecutive failures and resets on success; every attempt sets last_triggered_at', () => {
      given(created).when(attempt()).then([attempted(1)]);
      given(created, attempted(1)).when(attempt({ succeeded: true, responseStatus: 200, attemptedAt: 40 })).then([
        attempted(0, { succeeded: true, response_status: 200, attempted_at: 40 }),
      ]);
      const state = stateAfter(created, attempted(1), attempted(0, { succeeded: true, attempted_at: 40 }));
      expect(state.fields).toMatchObject({ failure_count: 0, last_triggered_at: 40, updated: 10 });
    });

    it('pauses the subscription at the configured number of consecutive failures', () => {
      given(created, attempted(1), attempted(2))
        .when(attempt())
        .then([
          attempted(3),
          { type: 'webhook.auto_paused', data: { ...base, reason: 'consecutive_failures', failure_count: 3, updated: 30 } },
        ]);
      const paused = stateAfter(created, attempted(1), attempted(2), attempted(3), {
        type: 'webhook.auto_paused',
        data: { ...base, reason: 'consecutive_failures', failure_count: 3, updated: 30 },
      });
      expect(paused.fields.status).toBe('paused');
    });

    it('pauses at once on 410 Gone', () => {
      given(created)
        .when(attempt({ gone: true, responseStatus: 410 }))
        .then([attempted(1, { response_status: 410 }), { type: 'webhook.auto_paused', data: { ...base, reason: 'gone', failure_count: 1, updated: 30 } }]);
    });

    it('does not pause again a paused subscription; late attempts are still counted', () => {
      given(created, updated({ status: 'paused' })).when(attempt({ gone: true })).then([attempted(1)]);
    });

    it('a test delivery changes only last_triggered_at', () => {
      given(created, attempted(2))
        .when(attempt({ test: true, gone: true }))
        .then([attempted(2, { test: true })]);
    });

    it('records nothing for a deleted subscription', () => {
      const deleted: WebhookEvent = { type: 'webhook.deleted', data: { ...base, deleted: 20 } };
      given(created, deleted).when(attempt()).thenNothing();
    });
  });

  describe('secret rotation', () => {
    it('signs with the new secret and, during the overlap, the previous one', () => {
      given(created)
        .when({ type: 'RotateWebhookSecret', sealedSecret: 'sealed-2', overlapMs: 100, now: 50 })
        .then([{ type: 'webhook.secret_rotated', data: { ...base, sealed_secret: 'sealed-2', previous_expires_at: 150, updated: 50 } }]);
      const rotated = stateAfter(created, {
        type: 'webhook.secret_rotated',
        data: { ...base, sealed_secret: 'sealed-2', previous_expires_at: 150, updated: 50 },
      });
      expect(signingSecrets(rotated.secrets, 149)).toEqual(['sealed-2', 'sealed-1']);
      expect(signingSecrets(rotated.secrets, 150)).toEqual(['sealed-2']);
      expect(signingSecrets(stateAfter(created).secrets, 0)).toEqual(['sealed-1']);
    });
  });

  describe('delete', () => {
    it('deletes a live subscription; afterwards it is not found', () => {
      const deleted: WebhookEvent = { type: 'webhook.deleted', data: { ...base, deleted: 20 } };
      given(created).when({ type: 'DeleteWebhook', now: 20 }).then([deleted]);
      given(created, deleted).when({ type: 'DeleteWebhook', now: 30 }).thenFails(WEBHOOK_NOT_FOUND);
      given(created, deleted).when(update({ name: 'Again' })).thenFails(WEBHOOK_NOT_FOUND);
      given().when({ type: 'RotateWebhookSecret', sealedSecret: 's', overlapMs: 1, now: 1 }).thenFails(WEBHOOK_NOT_FOUND);
    });
  });
});
