import { MemberAdded, workspaceStream } from '@app/domain';
import { projectorSpec, SpecHistory } from '../projections/projector.spec-helper';
import { API_KEYS, MEMBERS, workspaceProjector, WORKSPACES } from './workspace.projector';

const workspaceCreated = (id: string) =>
  ({ type: 'workspace.created', data: { id, name: 'Acme', plan: 'pro', project_limit: 5, created: 100 } }) as const;
const memberAdded = (workspaceId: string, memberId: string): MemberAdded => ({
  type: 'workspace.member_added',
  data: {
    workspace_id: workspaceId,
    member_id: memberId,
    role: 'pilot',
    status: 'active',
    title: 'Chief pilot',
    email_hash: 'eh',
    profile_sealed: 'sealed-profile',
    created: 200,
  },
});
const apiKeyCreated = (workspaceId: string, keyId: string) =>
  ({
    type: 'workspace.api_key_created',
    data: {
      workspace_id: workspaceId,
      key_id: keyId,
      name: 'Ops bot',
      scope: 'read_only',
      key_hash: 'kh',
      created: 300,
    },
  }) as const;

describe('workspace projector: given events -> workspace, member and API key documents', () => {
  const projection = projectorSpec(workspaceProjector);
  let history: SpecHistory;
  beforeEach(() => {
    history = new SpecHistory();
  });

  it('a workspace, its members (personal data sealed) and its keys (hash only) are one document each', async () => {
    const stream = workspaceStream('ws_1');
    await projection.given(
      history.record(stream, workspaceCreated('ws_1')),
      history.record(stream, memberAdded('ws_1', 'usr_1')),
      history.record(stream, apiKeyCreated('ws_1', 'key_1')),
    );

    await projection.expectDocuments({
      [WORKSPACES]: [
        {
          id: 'ws_1',
          workspaceId: 'ws_1',
          seq: 1,
          version: 0,
          doc: { id: 'ws_1', name: 'Acme', plan: 'pro', project_limit: 5, created: 100, updated: 100 },
        },
      ],
      [MEMBERS]: [
        {
          id: 'usr_1',
          workspaceId: 'ws_1',
          seq: 2,
          version: 0,
          doc: {
            id: 'usr_1',
            role: 'pilot',
            status: 'active',
            title: 'Chief pilot',
            profile_sealed: 'sealed-profile',
            created: 200,
            updated: 200,
          },
        },
      ],
      [API_KEYS]: [
        {
          id: 'key_1',
          workspaceId: 'ws_1',
          seq: 3,
          version: 0,
          doc: {
            id: 'key_1',
            workspace_id: 'ws_1',
            name: 'Ops bot',
            scope: 'read_only',
            status: 'active',
            key_hash: 'kh',
            created: 300,
          },
        },
      ],
    });
  });

  it('a plan change, an erasure and a deactivation change only their fields', async () => {
    const stream = workspaceStream('ws_1');
    await projection.given(
      history.record(stream, workspaceCreated('ws_1')),
      history.record(stream, memberAdded('ws_1', 'usr_1')),
      history.record(stream, apiKeyCreated('ws_1', 'key_1')),
      history.record(stream, {
        type: 'workspace.updated',
        data: { id: 'ws_1', changes: { plan: 'enterprise', project_limit: null }, updated: 400 },
      }),
      history.record(stream, {
        type: 'workspace.member_erased',
        data: { workspace_id: 'ws_1', member_id: 'usr_1', erased: 500 },
      }),
      history.record(stream, {
        type: 'workspace.api_key_deactivated',
        data: { workspace_id: 'ws_1', key_id: 'key_1', deactivated: 600 },
      }),
    );

    const docs = await projection.documents();
    expect(docs[WORKSPACES].map((d) => d.doc)).toEqual([
      { id: 'ws_1', name: 'Acme', plan: 'enterprise', project_limit: null, created: 100, updated: 400 },
    ]);
    expect(docs[MEMBERS].map((d) => d.doc)).toEqual([
      {
        id: 'usr_1',
        role: 'pilot',
        status: 'active',
        title: 'Chief pilot',
        profile_sealed: null,
        created: 200,
        updated: 500,
      },
    ]);
    expect(docs[API_KEYS].map((d) => d.doc)).toEqual([
      {
        id: 'key_1',
        workspace_id: 'ws_1',
        name: 'Ops bot',
        scope: 'read_only',
        status: 'inactive',
        key_hash: 'kh',
        created: 300,
      },
    ]);
  });

  it('project slot bookkeeping on the workspace stream writes nothing here', async () => {
    const stream = workspaceStream('ws_1');
    await projection.given(
      history.record(stream, workspaceCreated('ws_1')),
      history.record(stream, {
        type: 'workspace.project_slot_reserved',
        data: { workspace_id: 'ws_1', project_id: 'prj_1' },
      }),
    );

    expect((await projection.documents())[WORKSPACES].map((d) => d.doc.updated)).toEqual([100]);
  });

  it('a redelivered history leaves the same documents: an erased profile stays erased', async () => {
    const stream = workspaceStream('ws_1');
    const events = [
      history.record(stream, workspaceCreated('ws_1')),
      history.record(stream, memberAdded('ws_1', 'usr_1')),
      history.record(stream, {
        type: 'workspace.member_erased',
        data: { workspace_id: 'ws_1', member_id: 'usr_1', erased: 500 },
      }),
    ];
    await projection.given(...events);
    const once = await projection.documents();

    await projection.given(events[2]);
    await projection.given(...events);

    expect(await projection.documents()).toEqual(once);
    expect(once[MEMBERS].map((d) => d.doc.profile_sealed)).toEqual([null]);
  });

  it("another workspace's members and keys are documents of that workspace only", async () => {
    await projection.given(
      history.record(workspaceStream('ws_1'), workspaceCreated('ws_1')),
      history.record(workspaceStream('ws_1'), memberAdded('ws_1', 'usr_1')),
      history.record(workspaceStream('ws_2'), workspaceCreated('ws_2')),
      history.record(workspaceStream('ws_2'), memberAdded('ws_2', 'usr_9')),
      history.record(workspaceStream('ws_2'), apiKeyCreated('ws_2', 'key_9')),
    );

    const ids = (collection: string, ws: string) =>
      projection.store.find(collection, { workspaceId: ws, limit: 10 }).then((docs) => docs.map((d) => d.id));
    expect(await ids(WORKSPACES, 'ws_1')).toEqual(['ws_1']);
    expect(await ids(MEMBERS, 'ws_1')).toEqual(['usr_1']);
    expect(await ids(API_KEYS, 'ws_1')).toEqual([]);
    expect(await ids(MEMBERS, 'ws_2')).toEqual(['usr_9']);
    expect(await ids(API_KEYS, 'ws_2')).toEqual(['key_9']);
  });
});
