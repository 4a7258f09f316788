import { useProvisionedApp, Keys } from '../support/test-app';

const ROLE_MESSAGE = 'role must be one of: root, project_manager, ops_lead, pilot, client, all';

describe('Team members (docs/api.md, Team) over HTTP', () => {
  const { t, keys } = useProvisionedApp({ RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_SECOND: '1000000' });
  let other: Keys;
  const members: { id: string; role: string; email: string }[] = [];

  const add = async (ws: Keys, body: Record<string, unknown>) => {
    const res = await t.admin('POST', `/workspaces/${ws.workspaceId}/members`, body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  beforeAll(async () => {
    other = await t.provision({ name: 'Other' });
    const roles = ['root', 'project_manager', 'ops_lead', 'pilot', 'client', 'pilot'];
    for (const [i, role] of roles.entries()) {
      const email = `m${i}@example.com`;
      members.push({ id: await add(keys, { email, role, first_name: `M${i}` }), role, email });
    }
  });

  const list = (query = '', token = keys.readKey) => t.request('GET', `/v1/team${query}`, { token });

  it('lists every member with status, in the order they joined', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 6, cursor: null });
    expect(res.body.team.map((m: { id: string }) => m.id)).toEqual(members.map((m) => m.id));
    expect(res.body.team[0]).toEqual({
      id: members[0].id,
      email: 'm0@example.com',
      first_name: 'M0',
      last_name: null,
      role: 'root',
      status: 'active',
      title: null,
      phone_number: null,
      profile_picture: null,
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    expect((await list('?role=all')).body.team).toEqual(res.body.team);
  });

  it('filters by role', async () => {
    const pilots = await list('?role=pilot');
    expect(pilots.body.count).toBe(2);
    expect(pilots.body.team.map((m: { id: string }) => m.id)).toEqual(
      members.filter((m) => m.role === 'pilot').map((m) => m.id),
    );
    for (const role of ['root', 'project_manager', 'ops_lead', 'client']) {
      const res = await list(`?role=${role}`);
      expect(res.body.team.map((m: { role: string }) => m.role)).toEqual([role]);
    }
  });

  it('refuses an unknown role with 400 naming the field', async () => {
    for (const role of ['admin', 'PILOT', 'pilot,client']) {
      const res = await list(`?role=${encodeURIComponent(role)}`);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message: ROLE_MESSAGE } });
    }
  });

  it('shows a single member without status, with the other fields as the operator gave them', async () => {
    const id = await add(keys, {
      email: 'kim@example.com',
      role: 'pilot',
      first_name: 'Kim',
      last_name: 'Lee',
      title: 'Chief pilot',
      phone_number: '+31 20 555 0101',
      profile_picture: 'https://cdn.example.com/kim.png',
      status: 'invited',
    });
    const res = await t.request('GET', `/v1/team/${id}`, { token: keys.readKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      email: 'kim@example.com',
      first_name: 'Kim',
      last_name: 'Lee',
      role: 'pilot',
      title: 'Chief pilot',
      phone_number: '+31 20 555 0101',
      profile_picture: 'https://cdn.example.com/kim.png',
      created: expect.any(Number),
      updated: expect.any(Number),
    });
    const listed = (await list('?role=pilot')).body.team.find((m: { id: string }) => m.id === id);
    expect(listed).toEqual({ ...res.body, status: 'invited' });
  });

  it('answers 404 User not found for unknown ids and other workspaces’ members', async () => {
    const theirs = await add(other, { email: 'far@example.com', role: 'pilot' });
    for (const id of ['usr_missing', theirs]) {
      const res = await t.request('GET', `/v1/team/${id}`, { token: keys.readKey });
      expect({ status: res.status, body: res.body }).toEqual({ status: 404, body: { message: 'User not found' } });
    }
    expect((await list()).body.team.map((m: { id: string }) => m.id)).not.toContain(theirs);
  });

  it('pages 50 at a time with a cursor', async () => {
    const ws = await t.provision({ name: 'Big team' });
    const ids: string[] = [];
    for (let i = 0; i < 57; i++)
      ids.push(await add(ws, { email: `p${i}@example.com`, role: i % 2 ? 'pilot' : 'client' }));
    const first = await list('', ws.readKey);
    expect(first.body).toMatchObject({ count: 50, cursor: expect.any(String) });
    const second = await list(`?cursor=${first.body.cursor}`, ws.readKey);
    expect(second.body).toMatchObject({ count: 7, cursor: null });
    expect([...first.body.team, ...second.body.team].map((m: { id: string }) => m.id)).toEqual(ids);
    const pilots = await list('?role=pilot', ws.readKey);
    expect(pilots.body).toMatchObject({ count: 28, cursor: null });
    const bad = await list('?cursor=@@', ws.readKey);
    expect({ status: bad.status, body: bad.body }).toEqual({ status: 400, body: { message: 'cursor is invalid' } });
  });

  it('is read only: there is no route to write team members with an API key', async () => {
    const res = await t.request('POST', '/v1/team', {
      token: keys.fullKey,
      body: { email: 'x@example.com', role: 'pilot' },
    });
    expect(res.status).toBe(404);
  });
});
