import { MemberAdded, workspaceStream } from '@app/domain';
import { projectorSpec } from '../projections/projector.spec-helper';
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

/** The member document of `memberAdded(ws, id)`, with `changed` fields. */
const memberShown = (id: string, changed: object = {}) => ({
  id,
  role: 'pilot',
  status: 'active',
  title: 'Chief pilot',
  profile_sealed: 'sealed-profile',
  created: 200,
  updated: 200,
  ...changed,
});
/** The key document of `apiKeyCreated(ws, id)`, with `changed` fields: never the key, only its hash. */
const apiKeyShown = (workspaceId: string, id: string, changed: object = {}) => ({
  id,
  workspace_id: workspaceId,
  name: 'Ops bot',
  scope: 'read_only',
  status: 'active',
  key_hash: 'kh',
  created: 300,
  ...changed,
});
const erased = (workspaceId: string, memberId: string) =>
  ({ type: 'workspace.member_erased', data: { workspace_id: workspaceId, member_id: memberId, erased: 500 } }) as const;

describe('workspace projector: given events -> workspace, member and API key documents', () => {
  const projection = projectorSpec(workspaceProjector);
  const { record } = projection;

  it('a workspace, its members (personal data sealed) and its keys (hash only) are one document each', async () => {
    const stream = workspaceStream('ws_1');
    await projection.given(
      record(stream, workspaceCreated('ws_1')),
      record(stream, memberAdded('ws_1', 'usr_1')),
      record(stream, apiKeyCreated('ws_1', 'key_1')),
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
      [MEMBERS]: [{ id: 'usr_1', workspaceId: 'ws_1', seq: 2, version: 0, doc: memberShown('usr_1') }],
      [API_KEYS]: [{ id: 'key_1', workspaceId: 'ws_1', seq: 3, version: 0, doc: apiKeyShown('ws_1', 'key_1') }],
    });
  });

  it('a plan change, an erasure and a deactivation change only their fields', async () => {
    const stream = workspaceStream('ws_1');
    await projection.given(
      record(stream, workspaceCreated('ws_1')),
      record(stream, memberAdded('ws_1', 'usr_1')),
      record(stream, apiKeyCreated('ws_1', 'key_1')),
      record(stream, {
        type: 'workspace.updated',
        data: { id: 'ws_1', changes: { plan: 'enterprise', project_limit: null }, updated: 400 },
      }),
      record(stream, erased('ws_1', 'usr_1')),
      record(stream, {
        type: 'workspace.api_key_deactivated',
        data: { workspace_id: 'ws_1', key_id: 'key_1', deactivated: 600 },
      }),
    );

    const docs = await projection.documents();
    expect(docs[WORKSPACES].map((d) => d.doc)).toEqual([
      { id: 'ws_1', name: 'Acme', plan: 'enterprise', project_limit: null, created: 100, updated: 400 },
    ]);
    expect(docs[MEMBERS].map((d) => d.doc)).toEqual([memberShown('usr_1', { profile_sealed: null, updated: 500 })]);
    expect(docs[API_KEYS].map((d) => d.doc)).toEqual([apiKeyShown('ws_1', 'key_1', { status: 'inactive' })]);
  });

  it("status labels are the workspace document's, whole after each change; its `updated` stays the operator's", async () => {
    const stream = workspaceStream('ws_1');
    const labelled = (changes: Record<string, string | null>, labels: Record<string, string>, changed: number) =>
      record(stream, {
        type: 'workspace.status_labels_changed',
        data: { workspace_id: 'ws_1', changes, labels, changed },
      });
    const events = [
      record(stream, workspaceCreated('ws_1')),
      labelled({ in_progress: 'Flying', draft: 'Idea' }, { in_progress: 'Flying', draft: 'Idea' }, 400),
      labelled({ draft: null }, { in_progress: 'Flying' }, 500),
    ];
    const docs = await projection.expectRedeliveriesChangeNothing(events, [events[1]], events);
    expect(docs[WORKSPACES].map((d) => d.doc)).toEqual([
      {
        id: 'ws_1',
        name: 'Acme',
        plan: 'pro',
        project_limit: 5,
        created: 100,
        updated: 100,
        status_labels: { in_progress: 'Flying' },
      },
    ]);
  });

  it('project slot bookkeeping on the workspace stream writes nothing here', async () => {
    const stream = workspaceStream('ws_1');
    await projection.given(
      record(stream, workspaceCreated('ws_1')),
      record(stream, {
        type: 'workspace.project_slot_reserved',
        data: { workspace_id: 'ws_1', project_id: 'prj_1' },
      }),
    );

    expect((await projection.documents())[WORKSPACES].map((d) => d.doc.updated)).toEqual([100]);
  });

  it('a redelivered history leaves the same documents: an erased profile stays erased', async () => {
    const stream = workspaceStream('ws_1');
    const events = [
      record(stream, workspaceCreated('ws_1')),
      record(stream, memberAdded('ws_1', 'usr_1')),
      record(stream, erased('ws_1', 'usr_1')),
    ];
    const once = await projection.expectRedeliveriesChangeNothing(events, [events[2]], events);
    expect(once[MEMBERS].map((d) => d.doc.profile_sealed)).toEqual([null]);
  });

  it("another workspace's members and keys are documents of that workspace only", async () => {
    await projection.given(
      record(workspaceStream('ws_1'), workspaceCreated('ws_1')),
      record(workspaceStream('ws_1'), memberAdded('ws_1', 'usr_1')),
      record(workspaceStream('ws_2'), workspaceCreated('ws_2')),
      record(workspaceStream('ws_2'), memberAdded('ws_2', 'usr_9')),
      record(workspaceStream('ws_2'), apiKeyCreated('ws_2', 'key_9')),
    );

    expect(await projection.ids(WORKSPACES, 'ws_1')).toEqual(['ws_1']);
    expect(await projection.ids(MEMBERS, 'ws_1')).toEqual(['usr_1']);
    expect(await projection.ids(API_KEYS, 'ws_1')).toEqual([]);
    expect(await projection.ids(MEMBERS, 'ws_2')).toEqual(['usr_9']);
    expect(await projection.ids(API_KEYS, 'ws_2')).toEqual(['key_9']);
  });
});
