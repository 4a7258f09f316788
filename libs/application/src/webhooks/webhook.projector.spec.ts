import { WebhookCreated, webhookStream } from '@app/domain';
import { projectorSpec } from '../projections/projector.spec-helper';
import { WEBHOOKS, webhookProjector } from './webhook.projector';

const createdBy = { id: 'key_1', email: null, first_name: 'Ops bot', last_name: null };
const created = (id: string, workspaceId: string): WebhookCreated => ({
  type: 'webhook.created',
  data: {
    id,
    workspace_id: workspaceId,
    name: 'ERP sync',
    url: 'https://erp.example.test/hooks',
    event_types: ['project.created', 'job.created'],
    sealed_secret: 'sealed',
    created_by: createdBy,
    created: 100,
  },
});
const ref = (id = 'wh_1', workspaceId = 'ws_1') => ({ id, workspace_id: workspaceId });

/** The document of `created(id, ws)` as GET /webhooks shows it: never the secret. */
const shown = (id: string) => ({
  id,
  name: 'ERP sync',
  url: 'https://erp.example.test/hooks',
  event_types: ['project.created', 'job.created'],
  status: 'active',
  failure_count: 0,
  created: 100,
  updated: 100,
  created_by: createdBy,
  last_triggered_at: null,
});

/** A webhook.deliveries_attempted of wh_1 where every attempt failed, the last at 450. */
const attemptsFailed = (attempts: number, lastResponseStatus: number | null, failureCount: number) =>
  ({
    type: 'webhook.deliveries_attempted',
    data: {
      ...ref(),
      attempts,
      succeeded: 0,
      failed: attempts,
      first_attempted_at: 410,
      last_attempted_at: 450,
      last_response_status: lastResponseStatus,
      failure_count: failureCount,
      last_triggered_at: 450,
    },
  }) as const;

describe('webhook projector: given events -> webhook documents', () => {
  const projection = projectorSpec(webhookProjector);
  const { record } = projection;

  it('a created subscription is active with no failures, and without its sealed secret', async () => {
    await projection.given(record(webhookStream('wh_1'), created('wh_1', 'ws_1')));

    await projection.expectDocuments({
      [WEBHOOKS]: [{ id: 'wh_1', workspaceId: 'ws_1', seq: 1, version: 0, doc: shown('wh_1') }],
    });
  });

  it('updates, rotations, delivery telemetry of old histories and an automatic pause each set their fields', async () => {
    const stream = webhookStream('wh_1');
    await projection.given(
      record(stream, created('wh_1', 'ws_1')),
      record(stream, {
        type: 'webhook.updated',
        data: { ...ref(), changes: { name: 'ERP', event_types: ['job.deleted'] }, updated: 200 },
      }),
      record(stream, {
        type: 'webhook.secret_rotated',
        data: { ...ref(), sealed_secret: 'sealed-2', previous_expires_at: 9_999, updated: 300 },
      }),
      record(stream, {
        type: 'webhook.delivery_attempted',
        data: {
          ...ref(),
          delivery_id: 'dlv_1',
          attempt: 1,
          succeeded: false,
          response_status: 500,
          test: false,
          attempted_at: 400,
          failure_count: 1,
        },
      }),
      record(stream, attemptsFailed(3, null, 4)),
      record(stream, {
        type: 'webhook.auto_paused',
        data: { ...ref(), reason: 'consecutive_failures', failure_count: 10, updated: 500 },
      }),
    );

    await projection.expectDocuments({
      [WEBHOOKS]: [
        {
          id: 'wh_1',
          workspaceId: 'ws_1',
          seq: 1,
          version: 5,
          doc: {
            ...shown('wh_1'),
            name: 'ERP',
            event_types: ['job.deleted'],
            status: 'paused',
            failure_count: 10,
            last_triggered_at: 450,
            updated: 500,
          },
        },
      ],
    });
  });

  it('a re-activation resets the count; its reset generation stays out of the document', async () => {
    const stream = webhookStream('wh_1');
    await projection.given(
      record(stream, created('wh_1', 'ws_1')),
      record(stream, {
        type: 'webhook.auto_paused',
        data: { ...ref(), reason: 'gone', failure_count: 1, updated: 200 },
      }),
      record(stream, {
        type: 'webhook.updated',
        data: { ...ref(), changes: { status: 'active', failure_count: 0 }, updated: 300, reset_generation: 1 },
      }),
    );

    await projection.expectDocuments({
      [WEBHOOKS]: [{ id: 'wh_1', workspaceId: 'ws_1', seq: 1, version: 2, doc: { ...shown('wh_1'), updated: 300 } }],
    });
  });

  it('a deleted subscription leaves no document', async () => {
    await projection.given(
      record(webhookStream('wh_1'), created('wh_1', 'ws_1')),
      record(webhookStream('wh_2'), created('wh_2', 'ws_1')),
      record(webhookStream('wh_1'), { type: 'webhook.deleted', data: { ...ref(), deleted: 200 } }),
    );

    await projection.expectDocuments({
      [WEBHOOKS]: [{ id: 'wh_2', workspaceId: 'ws_1', seq: 2, version: 0, doc: shown('wh_2') }],
    });
  });

  it('a redelivered attempt does not count its failures twice', async () => {
    const stream = webhookStream('wh_1');
    const events = [record(stream, created('wh_1', 'ws_1')), record(stream, attemptsFailed(2, 503, 2))];

    const once = await projection.expectRedeliveriesChangeNothing(events, [events[1], events[1]], events);
    expect(once[WEBHOOKS].map((d) => d.doc.failure_count)).toEqual([2]);
  });

  it("another workspace's subscriptions are listed in that workspace only; other streams write nothing", async () => {
    await projection.given(
      record(webhookStream('wh_1'), created('wh_1', 'ws_1')),
      record(webhookStream('wh_9'), created('wh_9', 'ws_2')),
      // The projector is offered every event: another type's deletion of the same id is not its own.
      record('job-type-wh_1', {
        type: 'job_type.deleted',
        data: { id: 'wh_1', workspace_id: 'ws_1', deleted: 1 },
      }),
    );

    expect(await projection.ids(WEBHOOKS, 'ws_1')).toEqual(['wh_1']);
    expect(await projection.ids(WEBHOOKS, 'ws_2')).toEqual(['wh_9']);
  });
});
