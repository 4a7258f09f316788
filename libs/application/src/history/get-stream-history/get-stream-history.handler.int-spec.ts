import { workspaceStream } from '@app/domain';
import { useEmbeddedStores } from '../../shared/embedded-stores.spec-helper';
import { addMember } from '../../team/team-members.spec-helper';
import { recordWebhookWithSecret } from '../history.spec-helper';
import { GetStreamHistoryHandler } from './get-stream-history.handler';
import { GetStreamHistoryQuery } from './get-stream-history.query';

describe('GetStreamHistoryHandler (embedded SQLite)', () => {
  const stores = useEmbeddedStores('wos-history-');
  const handler = () => new GetStreamHistoryHandler(stores.events, stores.vault);
  const NOT_FOUND = 'Workspace not found';

  it("answers a stream's events oldest first, with actor and request, personal data opened", async () => {
    const { id: ws, context } = await stores.workspace();
    const { id: member } = await addMember(stores, context, 'ana@example.com', 'pilot');

    const page = await handler().execute(new GetStreamHistoryQuery(ws, workspaceStream(ws), NOT_FOUND));
    expect(page).toMatchObject({ count: 2, cursor: null });
    expect(page.history.map((e) => [e.type, e.revision])).toEqual([
      ['workspace.created', 0],
      ['workspace.member_added', 1],
    ]);
    expect(page.history[1]).toMatchObject({
      stream: workspaceStream(ws),
      actor: { type: 'api_key', id: 'key_1', name: 'Spec key' },
      request_id: context.requestId,
      change: { member_id: member, profile: { email: 'ana@example.com' } },
    });
    expect(JSON.stringify(page.history)).not.toContain('_sealed');
  });

  it('never shows a secret held by an event', async () => {
    const { id: ws, context } = await stores.workspace();
    const stream = await recordWebhookWithSecret(stores, ws, context);
    const page = await handler().execute(new GetStreamHistoryQuery(ws, stream, 'Webhook not found'));
    expect(page.history.map((e) => e.type)).toEqual(['webhook.created']);
    expect(page.history[0].change).toMatchObject({ name: 'Hook' });
    expect(JSON.stringify(page.history)).not.toContain('sealed-secret-material');
  });

  it("answers another workspace's stream, a missing one and one that fails `belongs` exactly alike", async () => {
    const { id: ws } = await stores.workspace('Owner');
    const { id: stranger } = await stores.workspace('Stranger');

    await expect(
      handler().execute(new GetStreamHistoryQuery(stranger, workspaceStream(ws), NOT_FOUND)),
    ).rejects.toThrow(NOT_FOUND);
    await expect(
      handler().execute(new GetStreamHistoryQuery(ws, workspaceStream('ws_missing'), NOT_FOUND)),
    ).rejects.toThrow(NOT_FOUND);
    await expect(
      handler().execute(new GetStreamHistoryQuery(ws, workspaceStream(ws), NOT_FOUND, undefined, () => false)),
    ).rejects.toThrow(NOT_FOUND);
  });

  it('pages by revision', async () => {
    const { id: ws, context } = await stores.workspace();
    for (let i = 0; i < 50; i++) await addMember(stores, context, `p${i}@example.com`, 'pilot');

    const first = await handler().execute(new GetStreamHistoryQuery(ws, workspaceStream(ws), NOT_FOUND));
    expect(first.count).toBe(50);
    const second = await handler().execute(
      new GetStreamHistoryQuery(ws, workspaceStream(ws), NOT_FOUND, first.cursor!),
    );
    expect(second).toMatchObject({ count: 1, cursor: null });
    expect([...first.history, ...second.history].map((e) => e.revision)).toEqual([...Array(51).keys()]);
  });
});
