import { jobTypeStream, webhookStream, workspaceStream } from '@app/domain';
import { projectorSpec, T0 } from '../projections/projector.spec-helper';
import { AUDIT_EVENTS, auditProjector } from './audit.projector';

const apiKey = { type: 'api_key' as const, id: 'key_1', name: 'Ops bot' };

describe('audit projector: given events -> the workspace audit feed', () => {
  const projection = projectorSpec(auditProjector);
  const { record } = projection;

  it('every event of a workspace is one entry, keyed by event id, with who did it and when', async () => {
    await projection.given(
      record(workspaceStream('ws_1'), {
        type: 'workspace.created',
        data: { id: 'ws_1', name: 'Acme', plan: 'pro', project_limit: 5, created: 100 },
      }),
      record(
        jobTypeStream('jbt_1'),
        {
          type: 'job_type.created',
          data: { id: 'jbt_1', workspace_id: 'ws_1', name: 'Roof', icon: 'roof', created: 200 },
        },
        { actor: apiKey, requestId: 'req_abc' },
      ),
      record(jobTypeStream('jbt_1'), {
        type: 'job_type.deleted',
        data: { id: 'jbt_1', workspace_id: 'ws_1', deleted: 300 },
      }),
    );

    await projection.expectDocuments({
      [AUDIT_EVENTS]: [
        {
          id: 'evt_1',
          workspaceId: 'ws_1',
          seq: 1,
          version: 0,
          doc: {
            event_id: 'evt_1',
            type: 'workspace.created',
            stream: 'workspace-ws_1',
            revision: 0,
            position: 1,
            recorded_at: T0 + 1,
            actor: { type: 'operator' },
            request_id: 'req_1',
            change: { id: 'ws_1', name: 'Acme', plan: 'pro', project_limit: 5, created: 100 },
          },
        },
        {
          id: 'evt_2',
          workspaceId: 'ws_1',
          seq: 2,
          version: 0,
          doc: {
            event_id: 'evt_2',
            type: 'job_type.created',
            stream: 'job-type-jbt_1',
            revision: 0,
            position: 2,
            recorded_at: T0 + 2,
            actor: { type: 'api_key', id: 'key_1', name: 'Ops bot' },
            request_id: 'req_abc',
            change: { id: 'jbt_1', workspace_id: 'ws_1', name: 'Roof', icon: 'roof', created: 200 },
          },
        },
        {
          id: 'evt_3',
          workspaceId: 'ws_1',
          seq: 3,
          version: 0,
          doc: {
            event_id: 'evt_3',
            type: 'job_type.deleted',
            stream: 'job-type-jbt_1',
            revision: 1,
            position: 3,
            recorded_at: T0 + 3,
            actor: { type: 'operator' },
            request_id: 'req_3',
            change: { id: 'jbt_1', workspace_id: 'ws_1', deleted: 300 },
          },
        },
      ],
    });
  });

  it('never lists a credential: key hashes and sealed secrets are left out of the change', async () => {
    await projection.given(
      record(workspaceStream('ws_1'), {
        type: 'workspace.api_key_created',
        data: { workspace_id: 'ws_1', key_id: 'key_1', name: 'bot', scope: 'full_access', key_hash: 'h', created: 1 },
      }),
      record(webhookStream('wh_1'), {
        type: 'webhook.created',
        data: {
          id: 'wh_1',
          workspace_id: 'ws_1',
          name: 'n',
          url: 'https://example.test/hook',
          event_types: ['job.created'],
          sealed_secret: 'sealed',
          created_by: null,
          created: 2,
        },
      }),
    );

    const changes = (await projection.documents())[AUDIT_EVENTS].map((d) => d.doc.change);
    expect(changes).toEqual([
      { workspace_id: 'ws_1', key_id: 'key_1', name: 'bot', scope: 'full_access', created: 1 },
      {
        id: 'wh_1',
        workspace_id: 'ws_1',
        name: 'n',
        url: 'https://example.test/hook',
        event_types: ['job.created'],
        created_by: null,
        created: 2,
      },
    ]);
  });

  it('an event without a workspace (operator bookkeeping) is not listed', async () => {
    await projection.given(
      record(
        workspaceStream('ws_1'),
        { type: 'workspace.updated', data: { id: 'ws_1', changes: { plan: 'free' }, updated: 2 } },
        { workspaceId: null },
      ),
    );

    await projection.expectDocuments({});
  });

  it('a redelivered event is listed once', async () => {
    const event = record(jobTypeStream('jbt_1'), {
      type: 'job_type.created',
      data: { id: 'jbt_1', workspace_id: 'ws_1', name: 'Roof', icon: 'roof', created: 200 },
    });
    await projection.expectRedeliveriesChangeNothing([event], [event, event]);
    expect(await projection.store.count(AUDIT_EVENTS, { workspaceId: 'ws_1' })).toBe(1);
  });

  it("another workspace's events are in that workspace's feed only", async () => {
    await projection.given(
      record(jobTypeStream('jbt_1'), {
        type: 'job_type.created',
        data: { id: 'jbt_1', workspace_id: 'ws_1', name: 'Roof', icon: 'roof', created: 200 },
      }),
      record(jobTypeStream('jbt_9'), {
        type: 'job_type.created',
        data: { id: 'jbt_9', workspace_id: 'ws_2', name: 'Theirs', icon: 'x', created: 200 },
      }),
    );

    expect(await projection.ids(AUDIT_EVENTS, 'ws_1')).toEqual(['evt_1']);
    expect(await projection.ids(AUDIT_EVENTS, 'ws_2')).toEqual(['evt_2']);
  });
});
