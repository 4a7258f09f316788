import { useProvisionedApp } from '../support/test-app';

interface Entry {
  type: string;
  workspace_id: string;
  position: number;
  request_id: string | null;
  actor: { type: string; id?: string };
  stream: string;
}

describe('Operator audit routes: the feed across workspaces, one request, resumable exports', () => {
  const { t, keys } = useProvisionedApp();
  let other: Awaited<ReturnType<typeof t.provision>>;
  let requestId: string;

  /** The feed is projected: read until the events just written are in it. */
  const feed = async (query: string, atLeast = 1) => {
    for (let i = 0; i < 200; i++) {
      const res = await t.admin('GET', `/events?${query}`);
      if (res.status !== 200 || res.body.count >= atLeast) return res;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`the feed never held ${atLeast} events for ${query}`);
  };
  const lines = (text: string) =>
    text
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { position: number; type: string; metadata: { workspaceId: string } });

  beforeAll(async () => {
    other = await t.provision({ name: 'Other' });
    const created = await t.request('POST', '/v1/projects', {
      token: keys.fullKey,
      body: { name: 'Dam', description: 'd', status: 'draft', start_date: '2026-01-01' },
      headers: { 'x-request-id': 'req-audit-e2e-1' },
    });
    expect(created.status).toBe(201);
    requestId = 'req-audit-e2e-1';
    await t.request('POST', '/v1/projects', {
      token: other.fullKey,
      body: { name: 'Elsewhere', description: 'd', status: 'draft', start_date: '2026-01-01' },
    });
  });

  it('lists every workspace newest first, filtered by workspace, type, actor and request', async () => {
    const created = await feed('type=project.created&order=desc', 2);
    expect(created.body.events.map((e: Entry) => e.workspace_id)).toEqual([other.workspaceId, keys.workspaceId]);

    const mine = await feed(`workspace=${keys.workspaceId}&order=desc`);
    expect(mine.body.events.every((e: Entry) => e.workspace_id === keys.workspaceId)).toBe(true);
    const positions = mine.body.events.map((e: Entry) => e.position);
    expect(positions).toEqual([...positions].sort((a, b) => b - a));

    const byKey = await feed(`actor=${keys.fullKeyId}`);
    const bot = { type: 'api_key', id: keys.fullKeyId, name: 'Ops bot' };
    expect(byKey.body.events.map((e: Entry) => [e.type, e.actor])).toEqual([
      ['workspace.project_slot_reserved', bot],
      ['project.created', bot],
    ]);
    const byOperator = await feed(`actor=operator&workspace=${keys.workspaceId}`);
    expect(byOperator.body.events.map((e: Entry) => e.type)).toContain('workspace.created');

    const request = await feed(`request_id=${requestId}`);
    expect(request.body.events.map((e: Entry) => e.request_id)).toEqual(request.body.events.map(() => requestId));
    expect(request.body.events.length).toBeGreaterThan(0);
  });

  it("answers one request's events across every stream it touched, in store order", async () => {
    await feed(`request_id=${requestId}`);
    const res = await t.admin('GET', `/requests/${requestId}/events`);
    expect(res.status).toBe(200);
    // Creating a project also takes a slot of the workspace's project limit: two streams.
    expect(res.body.events.map((e: Entry) => [e.type, e.stream.split('-')[0]])).toEqual([
      ['workspace.project_slot_reserved', 'workspace'],
      ['project.created', 'project'],
    ]);
    const positions = res.body.events.map((e: Entry) => e.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(await t.admin('GET', '/requests/nothing-here/events')).toMatchObject({ status: 200, body: { count: 0 } });
  });

  it('exports a filtered view across workspaces and resumes after the last position received', async () => {
    const whole = await t.admin('GET', '/events/export?type=project.created');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const all = lines(whole.text);
    expect(all.map((l) => l.metadata.workspaceId)).toEqual([keys.workspaceId, other.workspaceId]);
    const rest = await t.admin('GET', `/events/export?type=project.created&after=${all[0].position}`);
    expect(lines(rest.text)).toEqual(all.slice(1));
    const one = await t.admin('GET', `/events/export?workspace_id=${other.workspaceId}&type=project.created`);
    expect(lines(one.text).map((l) => l.metadata.workspaceId)).toEqual([other.workspaceId]);
  });

  it('refuses bad filters with 400 naming the parameter', async () => {
    const cases: [string, RegExp][] = [
      ['/events?order=sideways', /^order/],
      ['/events?actor=someone', /^actor/],
      ['/events?type=Not%20a%20type', /^type/],
      ['/events?from=yesterday', /^from/],
      ['/events?from=2&to=1', /^from must not be after to/],
      ['/events?workspace=acme', /^workspace/],
      ['/events?cursor=nope', /^cursor/],
      ['/events?order=asc&order=desc', /^order/],
      ['/events/export?after=-1&type=project.created', /^after/],
      ['/events/export', /workspace_id/],
      [`/events/export?workspace_id=${keys.workspaceId}&stream=x`, /workspace_id/],
    ];
    for (const [path, message] of cases) {
      const res = await t.admin('GET', path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(res.body.message).toMatch(message);
    }
  });

  it('refuses API keys on every audit route, as on every operator route', async () => {
    for (const path of ['/events', `/requests/${requestId}/events`, '/events/export?type=project.created']) {
      for (const token of [keys.fullKey, keys.readKey]) {
        const res = await t.request('GET', `/v1/admin${path}`, { token });
        expect([path, res.status, res.body.code_name]).toEqual([path, 403, 'api_key_path_not_allowed']);
      }
    }
  });
});
