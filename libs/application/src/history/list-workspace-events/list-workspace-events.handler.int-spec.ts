import { useEmbeddedStores } from '../../shared/embedded-stores.spec-helper';
import { addMember } from '../../team/team-members.spec-helper';
import { ListWorkspaceEventsHandler } from './list-workspace-events.handler';
import { ListWorkspaceEventsQuery } from './list-workspace-events.query';

describe('ListWorkspaceEventsHandler (embedded SQLite)', () => {
  const stores = useEmbeddedStores('wos-audit-');
  const handler = () => new ListWorkspaceEventsHandler(stores.read, stores.vault);

  it("lists the workspace's own events in store order, personal data opened", async () => {
    const { id: ws, context } = await stores.workspace('Owner');
    const { context: otherContext } = await stores.workspace('Other');
    await addMember(stores, context, 'ana@example.com', 'pilot');
    await addMember(stores, otherContext, 'eve@example.com', 'pilot');
    await stores.settle();

    const feed = await handler().execute(new ListWorkspaceEventsQuery(ws, {}));
    expect(feed.events.map((e) => e.type)).toEqual(['workspace.created', 'workspace.member_added']);
    expect(feed.events[1].change).toMatchObject({ profile: { email: 'ana@example.com' } });
    expect(JSON.stringify(feed)).not.toContain('eve@example.com');
  });

  it('filters by type and by recorded time, both bounds inclusive', async () => {
    const { id: ws, context } = await stores.workspace();
    const t0 = stores.clock.at;
    stores.clock.at = t0 + 1_000;
    await addMember(stores, context, 'ana@example.com', 'pilot');
    stores.clock.at = t0 + 2_000;
    await addMember(stores, context, 'ben@example.com', 'pilot');
    await stores.settle();

    const members = await handler().execute(new ListWorkspaceEventsQuery(ws, { types: ['workspace.member_added'] }));
    expect(members.count).toBe(2);
    const window = await handler().execute(new ListWorkspaceEventsQuery(ws, { from: t0 + 1_000, to: t0 + 1_000 }));
    expect(window.events.map((e) => [e.type, e.recorded_at])).toEqual([['workspace.member_added', t0 + 1_000]]);
    const since = await handler().execute(new ListWorkspaceEventsQuery(ws, { from: t0 + 1 }));
    expect(since.count).toBe(2);
  });

  it('refuses a window whose start is after its end', async () => {
    const { id: ws } = await stores.workspace();
    await expect(handler().execute(new ListWorkspaceEventsQuery(ws, { from: 2, to: 1 }))).rejects.toThrow(
      'from must not be after to',
    );
  });
});
