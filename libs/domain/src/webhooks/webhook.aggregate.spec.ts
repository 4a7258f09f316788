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
type Outcome = Extract<WebhookCommand, { type: 'RecordDeliveryAttempts' }>['attempts'][number];
const ok = (attemptedAt: number): Outcome => ({ succeeded: true, gone: false, responseStatus: 204, attemptedAt });
const ko = (attemptedAt: number, responseStatus: number | null = 500): Outcome => ({ succeeded: false, gone: responseStatus === 410, responseStatus, attemptedAt });
const attempts = (...outcomes: Outcome[]): WebhookCommand => ({ type: 'RecordDeliveryAttempts', attempts: outcomes, pauseAfterFailures: 3 });
const coalesced = (data: Partial<Extract<WebhookEvent, { type: 'webhook.deliveries_attempted' }>['data']>): WebhookEvent => ({
  type: 'webhook.deliveries_attempted',
  data: {
    ...base,
    attempts: 1,
    succeeded: 0,
    failed: 1,
    first_attempted_at: 30,
    last_attempted_at: 30,
    last_response_status: 500,
    failure_count: 1,
    last_triggered_at: 30,
    ...data,
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

  describe('delivery attempts recorded together (the dispatcher coalesces them)', () => {
    it('writes one event for the batch with the counts; failure_count and last_triggered_at as one by one', () => {
      given(created, attempted(1))
        .when(attempts(ko(50), ok(40), ko(60, null), ko(55)))
        .then([
          coalesced({ attempts: 4, succeeded: 1, failed: 3, first_attempted_at: 40, last_attempted_at: 60, last_response_status: 500, failure_count: 2, last_triggered_at: 60 }),
        ]);
      const state = stateAfter(created, attempted(1), coalesced({ failure_count: 2, last_triggered_at: 60 }));
      expect(state.fields).toMatchObject({ failure_count: 2, last_triggered_at: 60, status: 'active', updated: 10 });
    });

    it('the same state as recording the attempts one at a time', () => {
      const outcomes = [ko(31), ko(32), ok(33), ko(34), ko(35), ko(36), ko(37), ok(38)];
      const oneByOne = outcomes.reduce(
        (history, o) => [
          ...history,
          ...webhookDecider.decide(
            { type: 'RecordDeliveryAttempt', deliveryId: 'm', attempt: 1, succeeded: o.succeeded, gone: o.gone, responseStatus: o.responseStatus, test: false, attemptedAt: o.attemptedAt, pauseAfterFailures: 3 },
            fold(webhookDecider, history),
          ),
        ],
        [created] as WebhookEvent[],
      );
      const together = [created, ...webhookDecider.decide(attempts(...outcomes), stateAfter(created))];
      expect(stateAfter(...together).fields).toEqual(stateAfter(...oneByOne).fields);
      expect(together.map((e) => e.type)).toEqual(['webhook.created', 'webhook.deliveries_attempted', 'webhook.auto_paused', 'webhook.deliveries_attempted']);
    });

    it('stops the event at the attempt that pauses, so the history shows when it paused', () => {
      given(created, attempted(1))
        .when(attempts(ko(40), ko(41), ko(42), ok(43)))
        .then([
          coalesced({ attempts: 2, succeeded: 0, failed: 2, first_attempted_at: 40, last_attempted_at: 41, failure_count: 3, last_triggered_at: 41 }),
          { type: 'webhook.auto_paused', data: { ...base, reason: 'consecutive_failures', failure_count: 3, updated: 41 } },
          coalesced({ attempts: 2, succeeded: 1, failed: 1, first_attempted_at: 42, last_attempted_at: 43, last_response_status: 204, failure_count: 0, last_triggered_at: 43 }),
        ]);
    });

    it('pauses at once on 410 Gone; a paused subscription is only counted', () => {
      given(created)
        .when(attempts(ok(40), ko(41, 410)))
        .then([
          coalesced({ attempts: 2, succeeded: 1, failed: 1, first_attempted_at: 40, last_attempted_at: 41, last_response_status: 410, failure_count: 1, last_triggered_at: 41 }),
          { type: 'webhook.auto_paused', data: { ...base, reason: 'gone', failure_count: 1, updated: 41 } },
        ]);
      given(created, updated({ status: 'paused' }))
        .when(attempts(ko(40, 410), ko(41), ko(42), ko(43)))
        .then([coalesced({ attempts: 4, failed: 4, first_attempted_at: 40, last_attempted_at: 43, failure_count: 4, last_triggered_at: 43 })]);
    });

    it('never moves last_triggered_at back (a later test delivery was recorded first)', () => {
      const tested = attempted(0, { test: true, succeeded: true, attempted_at: 90 });
      given(created, tested)
        .when(attempts(ok(70), ok(80)))
        .then([coalesced({ attempts: 2, succeeded: 2, failed: 0, first_attempted_at: 70, last_attempted_at: 80, last_response_status: 204, failure_count: 0, last_triggered_at: 90 })]);
    });

    it('records nothing for a deleted subscription or an empty batch', () => {
      const deleted: WebhookEvent = { type: 'webhook.deleted', data: { ...base, deleted: 20 } };
      given(created, deleted).when(attempts(ko(40))).thenNothing();
      given(created).when(attempts()).thenNothing();
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
