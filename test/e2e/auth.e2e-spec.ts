import { useProvisionedApp } from '../support/test-app';

describe('Authentication (spec section 5) over HTTP', () => {
  const { t, keys } = useProvisionedApp();

  const expectAuthFailure = (res: { status: number; body: unknown }, code_name: string, message: string) => {
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message, code_name });
  };

  it.each([
    ['no Authorization header', undefined],
    ['a malformed key', 'not-a-key'],
    ['a key without the v1_ prefix', 'v2_' + 'a'.repeat(43)],
    ['an unknown v1_ key', 'v1_' + 'a'.repeat(43)],
  ])('refuses %s with invalid_api_key', async (_name, token) => {
    expectAuthFailure(await t.request('GET', '/v1/projects', { token }), 'invalid_api_key', 'Invalid API key');
  });

  it('refuses a non-Bearer scheme', async () => {
    const res = await t.request('GET', '/v1/projects', { headers: { authorization: `Basic ${keys.fullKey}` } });
    expectAuthFailure(res, 'invalid_api_key', 'Invalid API key');
  });

  it('accepts a valid key, case-insensitive scheme', async () => {
    const res = await t.request('GET', '/v1/projects', { headers: { authorization: `bearer ${keys.readKey}` } });
    expect(res.status).toBe(200);
  });

  it('lets read_only keys GET but refuses every write with read_only_access', async () => {
    expect((await t.request('GET', '/v1/projects', { token: keys.readKey })).status).toBe(200);
    const body = { name: 'x', description: 'y', status: 'draft', start_date: '2026-01-01' };
    expectAuthFailure(
      await t.request('POST', '/v1/projects', { token: keys.readKey, body }),
      'read_only_access',
      'API key has read-only access',
    );
    const created = await t.request('POST', '/v1/projects', { token: keys.fullKey, body });
    for (const [method, path] of [
      ['PATCH', `/v1/projects/${created.body.id}`],
      ['DELETE', `/v1/projects/${created.body.id}`],
      ['POST', `/v1/projects/${created.body.id}/archive`],
    ]) {
      expectAuthFailure(
        await t.request(method, path, {
          token: keys.readKey,
          body: method === 'DELETE' ? undefined : { name: 'z', archived: true },
        }),
        'read_only_access',
        'API key has read-only access',
      );
    }
    expect((await t.request('GET', `/v1/projects/${created.body.id}`, { token: keys.fullKey })).body.name).toBe('x');
  });

  it('refuses a deactivated key with api_key_inactive, immediately after deactivation', async () => {
    const key = await t.admin('POST', `/workspaces/${keys.workspaceId}/api-keys`, {
      name: 'Temp',
      scope: 'full_access',
    });
    expect((await t.request('GET', '/v1/projects', { token: key.body.key })).status).toBe(200);
    const off = await t.admin('POST', `/api-keys/${key.body.id}/deactivate`);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ message: 'API key deactivated' });
    expectAuthFailure(
      await t.request('GET', '/v1/projects', { token: key.body.key }),
      'api_key_inactive',
      'API key is not active',
    );
  });

  it('refuses keys of workspaces not on the Enterprise plan with enterprise_required, and follows plan changes', async () => {
    const pro = await t.provision({ plan: 'pro' });
    expectAuthFailure(
      await t.request('GET', '/v1/projects', { token: pro.fullKey }),
      'enterprise_required',
      'API keys require an Enterprise plan',
    );
    expect((await t.admin('PATCH', `/workspaces/${pro.workspaceId}`, { plan: 'enterprise' })).status).toBe(200);
    expect((await t.request('GET', '/v1/projects', { token: pro.fullKey })).status).toBe(200);
    await t.admin('PATCH', `/workspaces/${pro.workspaceId}`, { plan: 'free' });
    expectAuthFailure(
      await t.request('GET', '/v1/projects', { token: pro.fullKey }),
      'enterprise_required',
      'API keys require an Enterprise plan',
    );
  });

  it('refuses API keys on the operator API with api_key_path_not_allowed', async () => {
    for (const token of [keys.fullKey, keys.readKey, 'v1_' + 'x'.repeat(43)]) {
      expectAuthFailure(
        await t.request('POST', '/v1/admin/workspaces', { token, body: { name: 'x', plan: 'enterprise' } }),
        'api_key_path_not_allowed',
        'API key access not allowed for this endpoint',
      );
    }
  });

  it('refuses a wrong or missing admin token', async () => {
    for (const token of [undefined, 'adm_wrong']) {
      const res = await t.request('POST', '/v1/admin/workspaces', { token, body: { name: 'x', plan: 'enterprise' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'Invalid admin token', code_name: 'invalid_admin_token' });
    }
  });

  it('answers /health without authentication', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('returns the x-request-id it was given, or a new one', async () => {
    const given = await t.request('GET', '/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const made = await t.request('GET', '/health');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
