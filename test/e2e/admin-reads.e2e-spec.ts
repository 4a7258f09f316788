import { useTestApp } from '../support/test-app';

describe("Operator reads: workspaces, their keys and members (ARCHITECTURE's operator contract)", () => {
  const t = useTestApp();

  it('lists workspaces with plan, limit and usage, and gets one as listed', async () => {
    const ws = await t.provision({ name: 'Skyline Surveys', projectLimit: 10 });
    await t.admin('POST', `/workspaces/${ws.workspaceId}/members`, { email: 'pat@example.com', role: 'pilot' });
    const project = await t.request('POST', '/v1/projects', {
      token: ws.fullKey,
      body: { name: 'Harbour', description: 'Quay survey', status: 'planned', start_date: '2030-01-01' },
    });
    expect(project.status).toBe(201);
    await t.admin('POST', `/api-keys/${ws.readKeyId}/deactivate`);

    const one = await t.admin('GET', `/workspaces/${ws.workspaceId}`);
    expect(one).toMatchObject({ status: 200 });
    expect(one.body).toEqual({
      id: ws.workspaceId,
      name: 'Skyline Surveys',
      plan: 'enterprise',
      project_limit: 10,
      projects_used: 1,
      api_keys: 2,
      active_api_keys: 1,
      members: 1,
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    const list = await t.admin('GET', '/workspaces');
    expect(list.status).toBe(200);
    expect(list.body.workspaces.find((w: { id: string }) => w.id === ws.workspaceId)).toEqual(one.body);
    expect(list.body.count).toBe(list.body.workspaces.length);
    expect(list.body.cursor).toBeNull();
    expect(await t.admin('GET', '/workspaces/ws_missing')).toMatchObject({
      status: 404,
      body: { message: 'Workspace not found' },
    });
  });

  it('pages with a cursor and searches names in any case', async () => {
    for (let i = 0; i < 53; i++)
      await t.admin('POST', '/workspaces', { name: i % 2 ? `Odd ${i}` : `Even ${i}`, plan: 'free' });

    const first = await t.admin('GET', '/workspaces');
    expect(first.body.count).toBe(50);
    const second = await t.admin('GET', `/workspaces?cursor=${first.body.cursor}`);
    expect(second.body.cursor).toBeNull();
    const ids = [...first.body.workspaces, ...second.body.workspaces].map((w: { id: string }) => w.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(53);

    const odd = await t.admin('GET', '/workspaces?q=oDD');
    expect(odd.body.workspaces.map((w: { name: string }) => w.name)).toEqual(
      Array.from({ length: 26 }, (_, i) => `Odd ${2 * i + 1}`),
    );
    expect((await t.admin('GET', '/workspaces?q=%20')).body).toEqual({
      message: 'q must be a string of 1 to 100 characters',
    });
    expect((await t.admin('GET', '/workspaces?cursor=nope')).body).toEqual({ message: 'cursor is invalid' });
    const repeatedQ = await t.admin('GET', '/workspaces?q=a&q=b');
    expect([repeatedQ.status, repeatedQ.body]).toEqual([400, { message: 'q must be a string of 1 to 100 characters' }]);
    const repeatedCursor = await t.admin('GET', `/workspaces?cursor=${first.body.cursor}&cursor=x`);
    expect([repeatedCursor.status, repeatedCursor.body]).toEqual([400, { message: 'cursor is invalid' }]);
  });

  it("lists a workspace's API keys without secret or hash, and its members", async () => {
    const ws = await t.provision();
    const member = await t.admin('POST', `/workspaces/${ws.workspaceId}/members`, {
      email: 'lee@example.com',
      role: 'ops_lead',
      first_name: 'Lee',
    });

    const keys = await t.admin('GET', `/workspaces/${ws.workspaceId}/api-keys`);
    expect(keys.status).toBe(200);
    expect(keys.body).toEqual({
      api_keys: [
        {
          id: ws.fullKeyId,
          name: 'Ops bot',
          scope: 'full_access',
          status: 'active',
          created: expect.any(Number),
          last_used_at: null,
        },
        {
          id: ws.readKeyId,
          name: 'Reporter',
          scope: 'read_only',
          status: 'active',
          created: expect.any(Number),
          last_used_at: null,
        },
      ],
      count: 2,
      cursor: null,
    });
    expect(keys.text).not.toContain(ws.fullKey.slice(3));

    const members = await t.admin('GET', `/workspaces/${ws.workspaceId}/members`);
    expect(members.body).toMatchObject({
      members: [
        { id: member.body.id, email: 'lee@example.com', first_name: 'Lee', role: 'ops_lead', status: 'active' },
      ],
      count: 1,
      cursor: null,
    });
    expect(await t.admin('GET', '/workspaces/ws_missing/api-keys')).toMatchObject({ status: 404 });
    expect(await t.admin('GET', '/workspaces/ws_missing/members')).toMatchObject({ status: 404 });
  });
});
