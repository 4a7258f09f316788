import { useEmbeddedStores } from '../../shared/embedded-stores.spec-helper';
import { addMember } from '../team-members.spec-helper';
import { ListTeamHandler } from './list-team.handler';
import { ListTeamQuery } from './list-team.query';

describe('ListTeamHandler (embedded SQLite)', () => {
  const stores = useEmbeddedStores('wos-team-');
  const handler = () => new ListTeamHandler(stores.read, stores.vault);

  it("lists the workspace's members in the order they were added, their personal data opened", async () => {
    const { id: ws, context } = await stores.workspace();
    const { id: other, context: otherContext } = await stores.workspace('Other');
    const ana = await addMember(stores, context, 'ana@example.com', 'pilot');
    const ben = await addMember(stores, context, 'ben@example.com', 'project_manager');
    await addMember(stores, otherContext, 'eve@example.com', 'pilot');
    await stores.settle();

    const list = await handler().execute(new ListTeamQuery(ws, {}));
    expect(list).toMatchObject({ count: 2, cursor: null });
    expect(list.team).toEqual([
      expect.objectContaining({
        id: ana.id,
        email: 'ana@example.com',
        first_name: 'ana',
        role: 'pilot',
        status: 'active',
      }),
      expect.objectContaining({ id: ben.id, email: 'ben@example.com', role: 'project_manager' }),
    ]);
    expect((await handler().execute(new ListTeamQuery(other, {}))).team.map((m) => m.email)).toEqual([
      'eve@example.com',
    ]);
  });

  it('filters by role and pages with a cursor', async () => {
    const { id: ws, context } = await stores.workspace();
    const pilots: string[] = [];
    for (let i = 0; i < 51; i++) pilots.push((await addMember(stores, context, `p${i}@example.com`, 'pilot')).id);
    await addMember(stores, context, 'lead@example.com', 'ops_lead');
    await stores.settle();

    const leads = await handler().execute(new ListTeamQuery(ws, { role: 'ops_lead' }));
    expect(leads.team.map((m) => m.email)).toEqual(['lead@example.com']);

    const first = await handler().execute(new ListTeamQuery(ws, { role: 'pilot' }));
    expect(first.count).toBe(50);
    expect(first.cursor).not.toBeNull();
    const second = await handler().execute(new ListTeamQuery(ws, { role: 'pilot', cursor: first.cursor! }));
    expect([...first.team, ...second.team].map((m) => m.id)).toEqual(pilots);
    expect(second.cursor).toBeNull();
  });
});
