import { WebhookCreated, webhookStream } from '@app/domain';
import { projectorSpec, SpecHistory } from '../projections/projector.spec-helper';
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

describe('webhook projector: given events -> webhook documents', () => {
  const projection = projectorSpec(webhookProjector);
  let history: SpecHistory;
  beforeEach(() => {
    history = new SpecHistory();
  });

  it('a created subscription is active with no failures, and without its sealed secret', async () => {
    await projection.given(history.record(webhookStream('wh_1'), created('wh_1', 'ws_1')));

    await projection.expectDocuments({
      [WEBHOOKS]: [{ id: 'wh_1', workspaceId: 'ws_1', seq: 1, version: 0, doc: shown('wh_1') }],
    });
  });

  it('updates, rotations, delivery telemetry of old histories and an automatic pause each set their fields', async () => {
    const stream = webhookStream('wh_1');
    await projection.given(
      history.record(stream, created('wh_1', 'ws_1')),
      history.record(stream, {
        type: 'webhook.updated',
        data: { ...ref(), changes: { name: 'ERP', event_types: ['job.deleted'] }, updated: 200 },
      }),
      history.record(stream, {
        type: 'webhook.secret_rotated',
        data: { ...ref(), sealed_secret: 'sealed-2', previous_expires_at: 9_999, updated: 300 },
      }),
      history.record(stream, {
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
      history.record(stream, {
        type: 'webhook.deliveries_attempted',
        data: {
          ...ref(),
          attempts: 3,
          succeeded: 0,
          failed: 3,
          first_attempted_at: 410,
          last_attempted_at: 450,
          last_response_status: null,
          failure_count: 4,
          last_triggered_at: 450,
        },
      }),
      history.record(stream, {
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
      history.record(stream, created('wh_1', 'ws_1')),
      history.record(stream, {
        type: 'webhook.auto_paused',
        data: { ...ref(), reason: 'gone', failure_count: 1, updated: 200 },
      }),
      history.record(stream, {
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
      history.record(webhookStream('wh_1'), created('wh_1', 'ws_1')),
      history.record(webhookStream('wh_2'), created('wh_2', 'ws_1')),
      history.record(webhookStream('wh_1'), { type: 'webhook.deleted', data: { ...ref(), deleted: 200 } }),
    );

    await projection.expectDocuments({
      [WEBHOOKS]: [{ id: 'wh_2', workspaceId: 'ws_1', seq: 2, version: 0, doc: shown('wh_2') }],
    });
  });

  it('a redelivered attempt does not count its failures twice', async () => {
    const stream = webhookStream('wh_1');
    const events = [
      history.record(stream, created('wh_1', 'ws_1')),
      history.record(stream, {
        type: 'webhook.deliveries_attempted',
        data: {
          ...ref(),
          attempts: 2,
          succeeded: 0,
          failed: 2,
          first_attempted_at: 410,
          last_attempted_at: 450,
          last_response_status: 503,
          failure_count: 2,
          last_triggered_at: 450,
        },
      }),
    ];
    await projection.given(...events);
    const once = await projection.documents();

    await projection.given(events[1], events[1]);
    await projection.given(...events);

    expect(await projection.documents()).toEqual(once);
    expect(once[WEBHOOKS].map((d) => d.doc.failure_count)).toEqual([2]);
  });

  it("another workspace's subscriptions are listed in that workspace only; other streams write nothing", async () => {
    await projection.given(
      history.record(webhookStream('wh_1'), created('wh_1', 'ws_1')),
      history.record(webhookStream('wh_9'), created('wh_9', 'ws_2')),
      // The projector is offered every event: another type's deletion of the same id is not its own.
      history.record('job-type-wh_1', {
        type: 'job_type.deleted',
        data: { id: 'wh_1', workspace_id: 'ws_1', deleted: 1 },
      }),
    );

    const ids = (ws: string) =>
      projection.store.find(WEBHOOKS, { workspaceId: ws, limit: 10 }).then((docs) => docs.map((d) => d.id));
    expect(await ids('ws_1')).toEqual(['wh_1']);
    expect(await ids('ws_2')).toEqual(['wh_9']);
  });
});
