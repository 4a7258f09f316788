import { apiKeyContext, useEmbeddedStores } from '../../shared/embedded-stores.spec-helper';
import { encodeCursor } from '../../shared/pagination';
import { addMember } from '../../team/team-members.spec-helper';
import { ListAuditEventsHandler, ListRequestEventsHandler } from './list-audit-events.handler';
import { ListAuditEventsQuery, ListRequestEventsQuery } from './list-audit-events.query';

describe('ListAuditEventsHandler and ListRequestEventsHandler (embedded SQLite)', () => {
  const stores = useEmbeddedStores('wos-audit-filters-');
  const list = (filter: ConstructorParameters<typeof ListAuditEventsQuery>[0]) =>
    new ListAuditEventsHandler(stores.read, stores.vault).execute(new ListAuditEventsQuery(filter));

  it('filters by workspace, actor, request and order, newest first with a cursor', async () => {
    const { id: ws } = await stores.workspace('Owner');
    const { id: other } = await stores.workspace('Other');
    const bot = { type: 'api_key' as const, id: 'key_bot', name: 'Bot' };
    const byBot = apiKeyContext(ws, bot);
    await addMember(stores, byBot, 'ana@example.com', 'pilot');
    await addMember(stores, apiKeyContext(ws), 'ben@example.com', 'pilot');
    await addMember(stores, apiKeyContext(other), 'eve@example.com', 'pilot');
    await stores.settle();

    const newest = await list({ workspaceId: ws, order: 'desc' });
    expect(newest.events.map((e) => e.type)).toEqual([
      'workspace.member_added',
      'workspace.member_added',
      'workspace.created',
    ]);
    expect(newest.events.every((e) => e.workspace_id === ws)).toBe(true);
    expect(JSON.stringify(newest)).not.toContain('eve@example.com');

    const bots = await list({ workspaceId: ws, actor: 'key_bot' });
    expect(bots.events.map((e) => e.change)).toMatchObject([{ profile: { email: 'ana@example.com' } }]);
    const operators = await list({ workspaceId: ws, actor: 'operator' });
    expect(operators.events.map((e) => e.type)).toEqual(['workspace.created']);
    const everywhere = await list({ actor: 'operator', types: ['workspace.created'] });
    expect(everywhere.events.map((e) => e.workspace_id)).toEqual(expect.arrayContaining([ws, other]));

    const request = await list({ requestId: byBot.requestId });
    expect(request.events.map((e) => [e.workspace_id, e.actor])).toEqual([[ws, bot]]);
    const all = await new ListRequestEventsHandler(stores.read, stores.vault).execute(
      new ListRequestEventsQuery(byBot.requestId),
    );
    expect(all.events.map((e) => e.event_id)).toEqual(request.events.map((e) => e.event_id));

    const older = await list({ workspaceId: ws, order: 'desc', cursor: encodeCursor(newest.events[1].position) });
    expect(older.events.map((e) => e.type)).toEqual(['workspace.created']);
  });

  it('refuses a window whose start is after its end', async () => {
    await expect(list({ from: 2, to: 1 })).rejects.toThrow('from must not be after to');
  });
});
