import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fillPath, routeInventory } from '../support/route-inventory';
import { ServiceProcess } from '../support/service-process';
import { useTestApp } from '../support/test-app';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('Operator credentials and their roles (docs/operations.md, Operator credentials)', () => {
  const t = useTestApp();
  const operatorRoutes = routeInventory().filter((r) => r.audience === 'operator');

  const createCredential = async (role: 'operator' | 'auditor', name = `${role} credential`) => {
    const res = await t.admin('POST', '/operators', { name, role });
    expect(res.status).toBe(201);
    return res.body as { id: string; token: string };
  };

  it('finds operator routes to walk, and every one declares the role it needs', () => {
    expect(operatorRoutes.length).toBeGreaterThan(20);
    expect(operatorRoutes.filter((r) => r.requiredRole === undefined).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // Every GET is a read; a write is declared for auditors only where it verifies without changing anything.
    expect(operatorRoutes.filter((r) => r.method === 'GET' && r.requiredRole !== 'auditor')).toEqual([
      expect.objectContaining({ path: '/v1/admin/operators' }),
    ]);
    expect(
      operatorRoutes
        .filter((r) => r.method !== 'GET' && r.requiredRole === 'auditor')
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['POST /v1/admin/events/verify', 'POST /v1/admin/ledger/heads', 'POST /v1/admin/ledger/verify']);
  });

  it('lets an auditor call every read and refuses every other operator route with 403 operator_role_required', async () => {
    const ws = await t.provision();
    const auditor = await createCredential('auditor');
    const values: Record<string, string> = {
      workspaceId: ws.workspaceId,
      memberId: 'usr_missing',
      keyId: ws.fullKeyId,
      operatorId: auditor.id,
      projection: 'jobs',
      position: '1',
      requestId: 'req_missing',
    };
    const outcomes: string[] = [];
    for (const route of operatorRoutes) {
      const res = await t.request(route.method, fillPath(route, values), {
        token: auditor.token,
        body: route.method === 'GET' ? undefined : {},
      });
      const refused = res.status === 403;
      if (route.requiredRole === 'auditor' && refused)
        outcomes.push(`${route.method} ${route.path} refused: ${res.text}`);
      if (route.requiredRole !== 'auditor') {
        if (!refused || res.body.code_name !== 'operator_role_required')
          outcomes.push(`${route.method} ${route.path} not refused: ${res.status} ${res.text}`);
        else expect(res.body.message).toMatch(/auditor role, which may only read/);
      }
    }
    expect(outcomes).toEqual([]);
    // Nothing the auditor sent changed the key it could otherwise have deactivated.
    expect((await t.request('GET', '/v1/projects', { token: ws.fullKey })).status).toBe(200);
  }, 60_000);

  it('lets an operator credential write, recording its id as the actor of the events', async () => {
    const operator = await createCredential('operator', 'Ops on call');
    const created = await t.request('POST', '/v1/admin/workspaces', {
      token: operator.token,
      body: { name: 'By a named operator', plan: 'pro' },
    });
    expect(created.status).toBe(201);
    const exported = await t.admin('GET', `/events/export?workspace_id=${created.body.id}`);
    expect(exported.status).toBe(200);
    const events = exported.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ type: 'workspace.created' });
    expect(JSON.stringify(events[0])).toContain(`"actor":{"type":"operator","id":"${operator.id}"}`);
  });

  it('refuses a revoked credential on the very next request', async () => {
    const operator = await createCredential('operator');
    expect((await t.request('GET', '/v1/admin/workspaces', { token: operator.token })).status).toBe(200);

    const revoked = await t.admin('POST', `/operators/${operator.id}/revoke`);
    expect(revoked).toMatchObject({ status: 200, body: { id: operator.id, status: 'revoked' } });

    expect(await t.request('GET', '/v1/admin/workspaces', { token: operator.token })).toMatchObject({
      status: 403,
      body: { code_name: 'invalid_admin_token' },
    });
    expect(await t.admin('POST', '/operators/opr_missing/revoke')).toMatchObject({
      status: 404,
      body: { message: 'Operator credential not found' },
    });
  });

  it('lists credentials without their tokens; an auditor cannot manage them; bad bodies name the field', async () => {
    const auditor = await createCredential('auditor', 'Listed');
    const list = await t.admin('GET', '/operators');
    expect(list.status).toBe(200);
    expect(list.body.operators.find((o: { id: string }) => o.id === auditor.id)).toEqual({
      id: auditor.id,
      name: 'Listed',
      role: 'auditor',
      status: 'active',
      created: expect.any(Number),
      revoked_at: null,
    });
    expect(list.text).not.toContain(auditor.token);
    expect(list.text).not.toContain(sha256(auditor.token));
    expect(
      await t.request('POST', '/v1/admin/operators', { token: auditor.token, body: { name: 'x', role: 'operator' } }),
    ).toMatchObject({ status: 403, body: { code_name: 'operator_role_required' } });

    expect((await t.admin('POST', '/operators', { role: 'auditor' })).body).toEqual({ message: 'name is required' });
    expect((await t.admin('POST', '/operators', { name: 'x', role: 'root' })).body).toEqual({
      message: 'role must be one of: operator, auditor',
    });
  });

  it('stores only the SHA-256 of a token', async () => {
    const credential = await createCredential('auditor');
    const stored = readdirSync(t.dataDir)
      .filter((f) => f.startsWith('operators.db'))
      .map((f) => readFileSync(join(t.dataDir, f)).toString('latin1'))
      .join('');
    expect(stored).toContain(sha256(credential.token));
    expect(stored).not.toContain(credential.token);
    expect(stored).not.toContain(credential.token.slice(4));
  });

  it('refuses API keys on the operator API as before', async () => {
    const ws = await t.provision();
    expect(await t.request('GET', '/v1/admin/workspaces', { token: ws.fullKey })).toMatchObject({
      status: 403,
      body: { code_name: 'api_key_path_not_allowed' },
    });
    expect(await t.request('GET', '/v1/admin/operators', { token: ws.fullKey })).toMatchObject({
      status: 403,
      body: { code_name: 'api_key_path_not_allowed' },
    });
  });
});

describe('Operator credentials in the log of the built service', () => {
  it('never logs a token or its digest: created, used, revoked and refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wos-operators-log-'));
    const service = await ServiceProcess.start({ DATA_DIR: dir, ADMIN_TOKEN: 'adm_operators_log' });
    try {
      const call = (method: string, path: string, token: string, body?: unknown) =>
        fetch(`${service.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const created = (await (
        await call('POST', '/v1/admin/operators', 'adm_operators_log', { name: 'Logged?', role: 'operator' })
      ).json()) as { id: string; token: string };
      expect((await call('GET', '/v1/admin/workspaces', created.token)).status).toBe(200);
      await call('POST', `/v1/admin/operators/${created.id}/revoke`, 'adm_operators_log', {});
      expect((await call('GET', '/v1/admin/workspaces', created.token)).status).toBe(403);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await service.stop('SIGTERM')).toBe(0);

      expect(service.output).toContain('/v1/admin/operators');
      expect(service.output).not.toContain(created.token);
      expect(service.output).not.toContain(created.token.slice(4));
      expect(service.output).not.toContain(sha256(created.token));
    } finally {
      await service.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
