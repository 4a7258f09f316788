import { rmSync } from 'node:fs';
import { ADMIN_TOKEN, TestApp, useTestApp } from '../support/test-app';

describe('Operator API (docs/operator-contract.md) over HTTP', () => {
  const t = useTestApp();

  it('creates a workspace, members and keys; the key is shown once and works', async () => {
    const ws = await t.admin('POST', '/workspaces', { name: 'Skyline', plan: 'enterprise', project_limit: 10 });
    expect(ws.status).toBe(201);
    expect(Object.keys(ws.body)).toEqual(['id']);

    const member = await t.admin('POST', `/workspaces/${ws.body.id}/members`, {
      email: 'pilot@example.com',
      role: 'pilot',
      first_name: 'Pat',
    });
    expect(member.status).toBe(201);
    expect(Object.keys(member.body)).toEqual(['id']);

    const key = await t.admin('POST', `/workspaces/${ws.body.id}/api-keys`, { name: 'CI', scope: 'full_access' });
    expect(key.status).toBe(201);
    expect(Object.keys(key.body).sort()).toEqual(['id', 'key']);
    expect(key.body.key).toMatch(/^v1_[A-Za-z0-9_-]{43}$/);
    expect((await t.request('GET', '/v1/projects', { token: key.body.key })).status).toBe(200);
  });

  it('validates its bodies with 400 messages naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ plan: 'enterprise' }, 'name is required'],
      [{ name: 'x', plan: 'gold' }, 'plan must be one of: free, pro, enterprise'],
      [{ name: 'x', plan: 'pro', project_limit: -1 }, 'project_limit must be a non-negative integer or null'],
      [{ name: 'x', plan: 'pro', project_limit: 1.5 }, 'project_limit must be a non-negative integer or null'],
      [{ name: 'x', plan: 'pro', color: 'red' }, 'color is not an allowed field'],
    ];
    for (const [body, message] of cases) {
      const res = await t.admin('POST', '/workspaces', body);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message } });
    }
    const ws = await t.admin('POST', '/workspaces', { name: 'x', plan: 'pro' });
    expect((await t.admin('POST', `/workspaces/${ws.body.id}/api-keys`, { name: 'k', scope: 'admin' })).body).toEqual({
      message: 'scope must be one of: read_only, full_access',
    });
    expect((await t.admin('POST', `/workspaces/${ws.body.id}/members`, { email: 'nope', role: 'pilot' })).body).toEqual(
      {
        message: 'email must be a valid email address',
      },
    );
    expect(
      (await t.admin('POST', `/workspaces/${ws.body.id}/members`, { email: 'a@b.co', role: 'captain' })).body,
    ).toEqual({
      message: 'role must be one of: root, project_manager, ops_lead, pilot, client',
    });
    expect((await t.admin('PATCH', `/workspaces/${ws.body.id}`, {})).body).toEqual({
      message: 'At least one field to update is required (plan, project_limit)',
    });
  });

  it('answers 404 for unknown workspaces and keys, 409 for a duplicate member email', async () => {
    expect(await t.admin('PATCH', '/workspaces/ws_missing', { plan: 'pro' })).toMatchObject({
      status: 404,
      body: { message: 'Workspace not found' },
    });
    expect(await t.admin('POST', '/workspaces/ws_missing/api-keys', { name: 'k', scope: 'read_only' })).toMatchObject({
      status: 404,
      body: { message: 'Workspace not found' },
    });
    expect(await t.admin('POST', '/api-keys/key_missing/deactivate')).toMatchObject({
      status: 404,
      body: { message: 'API key not found' },
    });
    const ws = await t.admin('POST', '/workspaces', { name: 'x', plan: 'pro' });
    await t.admin('POST', `/workspaces/${ws.body.id}/members`, { email: 'dup@example.com', role: 'client' });
    expect(
      await t.admin('POST', `/workspaces/${ws.body.id}/members`, { email: 'DUP@example.com', role: 'pilot' }),
    ).toMatchObject({
      status: 409,
      body: { message: 'A member with this email already exists' },
    });
  });

  it('keeps workspaces, keys and projects across a restart on the same DATA_DIR', async () => {
    const first = await TestApp.start();
    const keys = await first.provision();
    const project = await first.request('POST', '/v1/projects', {
      token: keys.fullKey,
      body: { name: 'Durable', description: 'd', status: 'draft', start_date: '2026-01-01' },
    });
    await first.request('POST', `/v1/admin/api-keys/${keys.readKeyId}/deactivate`, { token: ADMIN_TOKEN });
    await first.stop({ keepData: true });

    const second = await TestApp.start({}, first.dataDir);
    try {
      const read = await second.request('GET', `/v1/projects/${project.body.id}`, { token: keys.fullKey });
      expect(read.status).toBe(200);
      expect(read.body.name).toBe('Durable');
      expect((await second.request('GET', '/v1/projects', { token: keys.readKey })).body.code_name).toBe(
        'api_key_inactive',
      );
    } finally {
      await second.stop();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});
