import { fold } from '../shared/decider';
import { spec } from '../shared/given-when-then.spec-helper';
import {
  DeliveryAttemptOutcome,
  invalidEventType,
  pauseRuleCrossing,
  signingSecrets,
  WebhookCommand,
  webhookDecider,
  WebhookState,
  webhookView,
} from './webhook.aggregate';
import { WebhookEvent } from './webhook.events';
import { WEBHOOK_MESSAGES, WEBHOOK_NOT_FOUND } from './webhook.values';

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
const update = (
  changes: Extract<WebhookCommand, { type: 'UpdateWebhook' }>['changes'],
  failureCount?: number,
): WebhookCommand => ({
  type: 'UpdateWebhook',
  changes,
  now: 20,
  ...(failureCount === undefined ? {} : { failureCount }),
});
const updated = (changes: object): WebhookEvent => ({
  type: 'webhook.updated',
  data: { ...base, changes, updated: 20 },
});
/** Events of older histories: attempts were recorded on the stream then. */
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
const coalesced = (
  data: Partial<Extract<WebhookEvent, { type: 'webhook.deliveries_attempted' }>['data']>,
): WebhookEvent => ({
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
const autoPause = (
  failureCount: number,
  reason: 'consecutive_failures' | 'gone' = 'consecutive_failures',
): WebhookCommand => ({
  type: 'AutoPauseWebhook',
  reason,
  failureCount,
  now: 30,
});
const autoPaused = (
  failureCount: number,
  reason: 'consecutive_failures' | 'gone' = 'consecutive_failures',
): WebhookEvent => ({
  type: 'webhook.auto_paused',
  data: { ...base, reason, failure_count: failureCount, updated: 30 },
});
const ok = (attemptedAt: number): DeliveryAttemptOutcome => ({ succeeded: true, gone: false, attemptedAt });
const ko = (attemptedAt: number, gone = false): DeliveryAttemptOutcome => ({ succeeded: false, gone, attemptedAt });
const stateAfter = (...events: WebhookEvent[]) =>
  fold(webhookDecider, events) as Extract<WebhookState, { status: 'live' }>;

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
        .then([
          { ...created, data: { ...created.data, event_types: ['project.created', 'job.deleted'] } } as WebhookEvent,
        ]);
    });

    it('refuses what docs/api.md refuses', () => {
      given()
        .when({ ...create, name: 'x' })
        .thenFails(WEBHOOK_MESSAGES.nameLength);
      given()
        .when({ ...create, url: 'http://hooks.example.com' })
        .thenFails(WEBHOOK_MESSAGES.urlHttps);
      given()
        .when({ ...create, url: 'https://' })
        .thenFails(WEBHOOK_MESSAGES.urlInvalid);
      given()
        .when({ ...create, eventTypes: [] })
        .thenFails(WEBHOOK_MESSAGES.eventTypesRequired);
      given()
        .when({ ...create, eventTypes: ['project.created', 'job_type.updated' as never] })
        .thenFails(invalidEventType('job_type.updated'));
    });
  });

  describe('update', () => {
    it('records only the supplied fields that change', () => {
      given(created)
        .when(update({ name: 'Renamed', url: created.data.url }))
        .then([updated({ name: 'Renamed' })]);
      given(created)
        .when(update({ event_types: ['project.created', 'project.updated'] }))
        .thenNothing();
      given(created)
        .when(update({ status: 'paused' }))
        .then([updated({ status: 'paused' })]);
    });

    it('resets failure_count when status is set to active, whatever the status was, as the next reset generation', () => {
      const reset = (changes: object, generation: number): WebhookEvent => ({
        type: 'webhook.updated',
        data: { ...base, changes, updated: 20, reset_generation: generation },
      });
      // The live count is the delivery store's: the handler passes it in.
      given(created)
        .when(update({ status: 'active' }, 2))
        .then([reset({ failure_count: 0 }, 1)]);
      given(created)
        .when(update({ status: 'active' }, 0))
        .thenNothing();
      given(created, autoPaused(3))
        .when(update({ status: 'active' }, 3))
        .then([reset({ status: 'active', failure_count: 0 }, 1)]);
      // Re-activation always resets, even when the count it saw is 0.
      given(created, autoPaused(3))
        .when(update({ status: 'active' }, 0))
        .then([reset({ status: 'active', failure_count: 0 }, 1)]);
      const first = reset({ status: 'active', failure_count: 0 }, 1);
      given(created, autoPaused(3), first, autoPaused(3))
        .when(update({ status: 'active' }))
        .then([reset({ status: 'active', failure_count: 0 }, 2)]);
      expect(stateAfter(created, autoPaused(3), first).resetGeneration).toBe(1);
      // Older reset events carry no generation: each counts one.
      expect(
        stateAfter(created, attempted(2), updated({ failure_count: 0 }), attempted(1), updated({ failure_count: 0 }))
          .resetGeneration,
      ).toBe(2);
    });

    it('uses the update messages', () => {
      given(created)
        .when(update({ url: 'ftp://x' }))
        .thenFails(WEBHOOK_MESSAGES.urlUpdate);
      given(created)
        .when(update({ event_types: [] }))
        .thenFails(WEBHOOK_MESSAGES.eventTypesUpdate);
      given(created)
        .when(update({ status: 'off' as never }))
        .thenFails(WEBHOOK_MESSAGES.status);
    });
  });

  describe("automatic pause (decided from the delivery store's telemetry)", () => {
    it('records one webhook.auto_paused with its reason and the count at that moment', () => {
      given(created)
        .when(autoPause(3))
        .then([autoPaused(3)]);
      given(created)
        .when(autoPause(1, 'gone'))
        .then([autoPaused(1, 'gone')]);
      const paused = stateAfter(created, autoPaused(3));
      expect(paused.fields).toMatchObject({ status: 'paused', failure_count: 3, updated: 30 });
    });

    it('is idempotent: a paused subscription is not paused again (two processes settling at once)', () => {
      given(created, autoPaused(3)).when(autoPause(4)).thenNothing();
      given(created, updated({ status: 'paused' }))
        .when(autoPause(3, 'gone'))
        .thenNothing();
    });

    it('records nothing for a deleted subscription', () => {
      const deleted: WebhookEvent = { type: 'webhook.deleted', data: { ...base, deleted: 20 } };
      given(created, deleted).when(autoPause(3)).thenNothing();
    });
  });

  describe('the pause rule', () => {
    it('pauses at the attempt that brings the count to the threshold, or beyond', () => {
      expect(pauseRuleCrossing(0, [ko(40), ko(41)], 3)).toBeNull();
      expect(pauseRuleCrossing(1, [ko(40), ko(41), ko(42)], 3)).toEqual({
        reason: 'consecutive_failures',
        failureCount: 3,
        attemptedAt: 41,
      });
      // A pause lost to a crash is recorded at the next failure.
      expect(pauseRuleCrossing(5, [ko(40)], 3)).toEqual({
        reason: 'consecutive_failures',
        failureCount: 6,
        attemptedAt: 40,
      });
    });

    it('a success resets the count, in the order the attempts ended', () => {
      expect(pauseRuleCrossing(2, [ok(40), ko(41), ko(42)], 3)).toBeNull();
      expect(pauseRuleCrossing(2, [ko(40), ok(41)], 3)).toEqual({
        reason: 'consecutive_failures',
        failureCount: 3,
        attemptedAt: 40,
      });
      expect(pauseRuleCrossing(2, [ok(40)], 3)).toBeNull();
    });

    it('pauses at once on 410 Gone', () => {
      expect(pauseRuleCrossing(0, [ok(40), ko(41, true), ko(42)], 3)).toEqual({
        reason: 'gone',
        failureCount: 1,
        attemptedAt: 41,
      });
    });
  });

  describe('older histories (attempts recorded on the stream)', () => {
    it("still load: their attempt events fold into the stream's values", () => {
      const state = stateAfter(
        created,
        attempted(1),
        attempted(0, { succeeded: true, attempted_at: 40 }),
        coalesced({ failure_count: 2, last_triggered_at: 60 }),
      );
      expect(state.status).toBe('live');
      expect(state.fields).toMatchObject({ status: 'active', failure_count: 2, last_triggered_at: 60, updated: 10 });
      const paused = stateAfter(created, coalesced({ failure_count: 3 }), {
        type: 'webhook.auto_paused',
        data: { ...base, reason: 'consecutive_failures', failure_count: 3, updated: 31 },
      });
      expect(paused.fields).toMatchObject({ status: 'paused', failure_count: 3 });
      // Re-activating such a subscription resets, as before.
      given(created, attempted(2))
        .when(update({ status: 'active' }))
        .then([
          {
            type: 'webhook.updated',
            data: { ...base, changes: { failure_count: 0 }, updated: 20, reset_generation: 1 },
          },
        ]);
    });
  });

  describe('secret rotation', () => {
    it('signs with the new secret and, during the overlap, the previous one', () => {
      given(created)
        .when({ type: 'RotateWebhookSecret', sealedSecret: 'sealed-2', overlapMs: 100, now: 50 })
        .then([
          {
            type: 'webhook.secret_rotated',
            data: { ...base, sealed_secret: 'sealed-2', previous_expires_at: 150, updated: 50 },
          },
        ]);
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
      given(created, deleted)
        .when(update({ name: 'Again' }))
        .thenFails(WEBHOOK_NOT_FOUND);
      given()
        .when({ type: 'RotateWebhookSecret', sealedSecret: 's', overlapMs: 1, now: 1 })
        .thenFails(WEBHOOK_NOT_FOUND);
    });
  });
});
