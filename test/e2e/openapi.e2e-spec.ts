import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ADMIN_TOKEN, HttpResult, useTestApp } from '../support/test-app';
import { Json, resolveRef } from '../support/openapi-refs';

/**
 * The OpenAPI 3.1 document at /openapi.json, generated from the controllers and
 * DTOs, and Swagger UI at /docs. The document is checked by a real validator, against the routes
 * the application actually registers, and against what the service actually answers.
 */

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const AUTH_CODES = [
  'invalid_api_key',
  'api_key_inactive',
  'read_only_access',
  'enterprise_required',
  'api_key_path_not_allowed',
];
/** The POSTs of the operator API an auditor may call (docs/operations.md, Operator credentials). */
const AUDITOR_WRITES = new Set([
  'POST /v1/admin/events/verify',
  'POST /v1/admin/ledger/heads',
  'POST /v1/admin/ledger/verify',
]);
/** The document's own routes are not part of the API it describes, nor are the dashboard's and the console's pages. */
const NOT_DOCUMENTED = new Set(['/openapi.json', '/docs', '/docs/{asset}']);
// (Fastify's route tree prints a catch-all, `/dashboard/*`, as `/dashboard*`.)
const notDocumented = (path: string) => NOT_DOCUMENTED.has(path) || /^\/(dashboard|console)(\/|\*|$)/.test(path);

interface Sample {
  method: string;
  path: string;
  status: number;
  body: unknown;
}
interface Validation {
  valid: boolean;
  version: string;
  errors: unknown;
  schemaErrors: unknown[];
  exampleErrors: unknown[];
  sampleErrors: unknown[];
}

/** test/support/validate-openapi.mjs in a plain Node process (the validator is ESM-only). */
function validate(document: Json, samples: Sample[] = []): Promise<Validation> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(__dirname, '../support/validate-openapi.mjs')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`validator exited with ${code}: ${err}`)),
    );
    child.stdin.end(JSON.stringify({ document, samples }));
  });
}

/**
 * Every method and path Fastify routes, read from its own route tree (`printRoutes`), with
 * `:param` written as OpenAPI's `{param}`. HEAD routes are Fastify's automatic twins of GETs.
 */
function registeredRoutes(tree: string): Array<{ method: string; path: string }> {
  const routes: Array<{ method: string; path: string }> = [];
  const prefixes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = [...match[1]].length / 4;
    prefixes.length = depth;
    const path = (prefixes[depth - 1] ?? '') + match[2];
    prefixes[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) {
      if (method !== 'HEAD') routes.push({ method, path: path.replace(/:([A-Za-z0-9_]+)/g, '{$1}') });
    }
  }
  return routes;
}

function operations(document: Json): Array<{ method: string; path: string; operation: Json }> {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((method) => ({
      method: method.toUpperCase(),
      path,
      operation: item[method] as Json,
    })),
  );
}

/** Every object in the document, with where it is. */
function* walk(value: unknown, where = '#'): Generator<[string, Json]> {
  if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* walk(v, `${where}/${i}`);
  else if (value && typeof value === 'object') {
    yield [where, value as Json];
    for (const [key, inner] of Object.entries(value)) yield* walk(inner, `${where}/${key}`);
  }
}

describe('OpenAPI document (/openapi.json)', () => {
  const t = useTestApp();
  let document: Json;
  let served: HttpResult;

  beforeAll(async () => {
    served = await t.request('GET', '/openapi.json');
    document = served.body;
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator), every schema valid JSON Schema 2020-12', async () => {
    expect(served.status).toBe(200);
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(document);
    expect(result.errors).toBeNull();
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.1');
    expect(result.schemaErrors).toEqual([]);
    // Every example (of a schema, a property, a request, a response) fits its schema.
    expect(result.exampleErrors).toEqual([]);
    // No OpenAPI 3.0 leftovers: 3.1 writes nullability as a "null" type, bounds as numbers.
    const leftovers = [...walk(document)].filter(
      ([, node]) =>
        'nullable' in node || typeof node.exclusiveMinimum === 'boolean' || typeof node.exclusiveMaximum === 'boolean',
    );
    expect(leftovers.map(([where]) => where)).toEqual([]);
  });

  it('describes every route the application registers, and nothing else', () => {
    const routes = registeredRoutes(t.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false }));
    const registered = routes.filter((r) => !notDocumented(r.path)).map((r) => `${r.method} ${r.path}`);
    const documented = operations(document).map((o) => `${o.method} ${o.path}`);
    expect(registered.length).toBeGreaterThan(40);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['GET /openapi.json', 'GET /docs', 'GET /docs/{asset}']),
    );
    expect(documented.sort()).toEqual(registered.sort());
  });

  it('declares the bearer auth (docs/api.md, Authentication): API keys on /v1, the operator token on /v1/admin, an empty list (public) on the probes', () => {
    expect(document.components.securitySchemes).toEqual({
      api_key: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'v1_...' }),
      operator_token: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    for (const { method, path, operation } of operations(document)) {
      const expected = path.startsWith('/v1/admin/')
        ? [{ operator_token: [] }]
        : path.startsWith('/v1/')
          ? [{ api_key: [] }]
          : [];
      expect({ route: `${method} ${path}`, security: operation.security }).toEqual({
        route: `${method} ${path}`,
        security: expected,
      });
    }
  });

  it('documents the errors: { message } with the documented statuses, the auth { message, code_name } with its five code names', () => {
    const schemas = document.components.schemas;
    expect(schemas.Error).toMatchObject({
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' } },
    });
    expect(schemas.AuthError).toMatchObject({ type: 'object', required: ['message', 'code_name'] });
    expect(schemas.AuthError.properties.code_name.enum).toEqual(expect.arrayContaining(AUTH_CODES));
    const codesSeen = new Set<string>();
    for (const { method, path, operation } of operations(document)) {
      const route = `${method} ${path}`;
      const responses = operation.responses as Json;
      if (!path.startsWith('/v1/')) continue;
      // Every API route: 403 with the auth shape, 429 (rate limit).
      const forbidden = responses['403']?.content?.['application/json'];
      expect({ route, schema: forbidden?.schema }).toEqual({
        route,
        schema: { $ref: '#/components/schemas/AuthError' },
      });
      const codes = Object.values(forbidden.examples as Json).map((e: Json) => e.value.code_name as string);
      codes.forEach((c) => codesSeen.add(c));
      // An admin route that needs the operator role also names the auditor's refusal; a read does not.
      if (path.startsWith('/v1/admin/')) {
        const auditorMay = AUDITOR_WRITES.has(route) || (method === 'GET' && path !== '/v1/admin/operators');
        expect({ route, codes }).toEqual({
          route,
          codes: ['invalid_admin_token', 'api_key_path_not_allowed', ...(auditorMay ? [] : ['operator_role_required'])],
        });
      } else
        expect({ route, readOnly: codes.includes('read_only_access') }).toEqual({ route, readOnly: method !== 'GET' });
      expect(resolveRef(document, responses['429'])?.content?.['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/Error',
      });
      // Other errors are { message }, with examples.
      for (const [status, response] of Object.entries(responses)) {
        if (!/^4\d\d$/.test(status) || status === '403') continue;
        const media = resolveRef(document, response as Json).content['application/json'];
        expect({ route, status, schema: media.schema }).toEqual({
          route,
          status,
          schema: { $ref: '#/components/schemas/Error' },
        });
        expect(Object.keys(media.examples ?? {}).length).toBeGreaterThan(0);
      }
    }
    expect([...codesSeen].sort()).toEqual([...AUTH_CODES, 'invalid_admin_token', 'operator_role_required'].sort());
    // The API reference's statuses where the API reference names them.
    const post = document.paths['/v1/projects'].post.responses;
    expect(Object.keys(post)).toEqual(expect.arrayContaining(['201', '400', '403', '404', '429']));
    expect(Object.values(post['429'].content['application/json'].examples).map((e: any) => e.value.message)).toContain(
      'Project limit reached for the workspace plan',
    );
    expect(
      document.paths['/v1/job-types/{jobTypeId}'].delete.responses['400'].content['application/json'].examples,
    ).toEqual(
      expect.objectContaining({
        cannot_delete_predefined_job_types: expect.objectContaining({
          value: { message: 'Cannot delete predefined job types' },
        }),
      }),
    );
    expect(Object.keys(document.paths['/v1/projects/{projectId}'].patch.responses)).toEqual(
      expect.arrayContaining(['200', '400', '404', '412']),
    );
  });

  it('gives every operation a summary, a tag and an id, and every JSON body and answer a schema, with examples', () => {
    const ids = new Set<string>();
    for (const { method, path, operation } of operations(document)) {
      const route = `${method} ${path}`;
      expect({ route, summary: typeof operation.summary, tags: operation.tags?.length }).toEqual({
        route,
        summary: 'string',
        tags: 1,
      });
      expect(ids.has(operation.operationId)).toBe(false);
      ids.add(operation.operationId);
      const success = Object.keys(operation.responses).filter((s) => /^2\d\d$/.test(s));
      expect({ route, success: success.length }).toEqual({ route, success: 1 });
      const answer = operation.responses[success[0]];
      if (success[0] !== '204')
        expect({ route, content: Object.keys(answer.content ?? {}).length > 0 }).toEqual({ route, content: true });
      // Every query parameter of this API is optional; path parameters are described.
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.in === 'query')
          expect({ route, query: parameter.name, required: parameter.required }).toEqual({
            route,
            query: parameter.name,
            required: false,
          });
        if (parameter.in === 'path')
          expect({ route, path: parameter.name, described: !!parameter.description }).toEqual({
            route,
            path: parameter.name,
            described: true,
          });
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) expect(document.components.schemas[body.$ref.split('/').pop()]).toBeDefined();
      if (method === 'POST' && path.startsWith('/v1/')) {
        expect(operation.parameters).toEqual(
          expect.arrayContaining([{ $ref: '#/components/parameters/IdempotencyKey' }]),
        );
      }
    }
    // Examples everywhere a client looks first: resource fields and request fields.
    for (const name of [
      'Project',
      'Job',
      'JobType',
      'TeamMember',
      'Webhook',
      'CreateProjectDto',
      'CreateJobDto',
      'CreateWebhookDto',
    ]) {
      const schema = document.components.schemas[name];
      expect(schema).toBeDefined();
      const withoutExample = Object.entries(schema.properties as Json).filter(
        ([, p]) => !('example' in p) && !p.$ref && !p.allOf && !p.anyOf,
      );
      expect({ name, withoutExample: withoutExample.map(([k]) => k) }).toEqual({ name, withoutExample: [] });
    }
  });

  it('tells the truth: what the service answers validates against the documented schemas and statuses', async () => {
    const samples: Sample[] = [];
    const call = async (
      method: string,
      template: string,
      params: Record<string, string>,
      options: { token?: string; body?: unknown } = {},
    ) => {
      const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name]));
      const res = await t.request(method, path, options);
      samples.push({ method, path: template, status: res.status, body: res.status === 204 ? undefined : res.body });
      return res;
    };
    const admin = { token: ADMIN_TOKEN };
    const ws = await call(
      'POST',
      '/v1/admin/workspaces',
      {},
      { ...admin, body: { name: 'Docs', plan: 'enterprise', project_limit: 1 } },
    );
    const workspaceId = ws.body.id as string;
    const full = (
      await call(
        'POST',
        '/v1/admin/workspaces/{workspaceId}/api-keys',
        { workspaceId },
        { ...admin, body: { name: 'Ops bot', scope: 'full_access' } },
      )
    ).body;
    const read = (
      await call(
        'POST',
        '/v1/admin/workspaces/{workspaceId}/api-keys',
        { workspaceId },
        { ...admin, body: { name: 'Reader', scope: 'read_only' } },
      )
    ).body;
    const pilot = await call(
      'POST',
      '/v1/admin/workspaces/{workspaceId}/members',
      { workspaceId },
      { ...admin, body: { email: 'pat@example.com', role: 'pilot', first_name: 'Pat' } },
    );
    await call(
      'PATCH',
      '/v1/admin/workspaces/{workspaceId}',
      { workspaceId },
      { ...admin, body: { project_limit: 5 } },
    );
    await call('GET', '/v1/admin/projections', {}, admin);
    await call('POST', '/v1/admin/events/verify', {}, admin);
    await call('GET', '/v1/admin/projections', {}, { token: full.key }); // 403 api_key_path_not_allowed

    const key = { token: full.key as string };
    const project = await call(
      'POST',
      '/v1/projects',
      {},
      {
        ...key,
        body: {
          name: 'Dam',
          description: 'Spillway',
          status: 'planned',
          start_date: '2026-12-01',
          end_date: '2026-12-31',
        },
      },
    );
    const projectId = project.body.id as string;
    await call('POST', '/v1/projects', {}, { ...key, body: { name: 'Dam' } }); // 400
    await call('POST', '/v1/projects', {}, { token: read.key, body: {} }); // 403 read_only_access
    await call('GET', '/v1/projects', {}, { token: 'v1_nope' }); // 403 invalid_api_key
    await call('GET', '/v1/projects', {}, key);
    await call('GET', '/v1/projects/{projectId}', { projectId }, key);
    await call('GET', '/v1/projects/{projectId}', { projectId: 'prj_missing' }, key); // 404
    await call(
      'PATCH',
      '/v1/projects/{projectId}',
      { projectId },
      { ...key, body: { laanc_number: 'L-1', external_id: null } },
    );
    await call('POST', '/v1/projects/{projectId}/archive', { projectId }, { ...key, body: { archived: false } });
    await call('GET', '/v1/projects/{projectId}/history', { projectId }, key);

    const today = new Date().toISOString().slice(0, 10);
    const job = await call(
      'POST',
      '/v1/projects/{projectId}/jobs',
      { projectId },
      {
        ...key,
        body: {
          name: 'Weekly',
          type: 'wind_turbine',
          job_pattern: 'recurring',
          start_date: today,
          recurring_frequency: 'weekly',
          selected_days_of_week: [1],
          latitude: 55.6,
          longitude: 12.5,
          capture_types: ['panorama'],
        },
      },
    );
    const jobId = job.body.id as string;
    await call('GET', '/v1/projects/{projectId}/jobs', { projectId }, key);
    await call('GET', '/v1/projects/{projectId}/jobs/{jobId}', { projectId, jobId }, key);
    await call(
      'PATCH',
      '/v1/projects/{projectId}/jobs/{jobId}',
      { projectId, jobId },
      { ...key, body: { priority: 'high', end_date: null } },
    );
    await call(
      'POST',
      '/v1/projects/{projectId}/jobs/{jobId}/assign',
      { projectId, jobId },
      { ...key, body: { pilots: [pilot.body.id] } },
    );
    await call('GET', '/v1/projects/{projectId}/jobs/{jobId}/occurrences', { projectId, jobId }, key);
    await call(
      'POST',
      '/v1/projects/{projectId}/jobs/{jobId}/unassign',
      { projectId, jobId },
      { ...key, body: { pilots: [pilot.body.id] } },
    );
    await call(
      'POST',
      '/v1/projects/{projectId}/jobs/{jobId}/unassign',
      { projectId, jobId },
      { ...key, body: { pilots: [pilot.body.id] } },
    ); // 404
    await call('GET', '/v1/projects/{projectId}/jobs/{jobId}/history', { projectId, jobId }, key);
    await call('DELETE', '/v1/projects/{projectId}/jobs/{jobId}', { projectId, jobId }, key);

    const jobType = await call('POST', '/v1/job-types', {}, { ...key, body: { name: 'Substation', icon: 'zap' } });
    const jobTypeId = jobType.body.id as string;
    await call('GET', '/v1/job-types', {}, key);
    await call('GET', '/v1/job-types/{jobTypeId}/history', { jobTypeId }, key);
    await call('DELETE', '/v1/job-types/{jobTypeId}', { jobTypeId: 'wind_turbine' }, key); // 400
    await call('DELETE', '/v1/job-types/{jobTypeId}', { jobTypeId }, key);

    await call('GET', '/v1/team', {}, key);
    await call('GET', '/v1/team/{teamMemberId}', { teamMemberId: pilot.body.id }, key);

    const webhook = await call(
      'POST',
      '/v1/webhooks',
      {},
      { ...key, body: { name: 'Feed', url: 'https://hooks.example.invalid/in', event_types: ['project.created'] } },
    );
    const webhookId = webhook.body.id as string;
    await call('GET', '/v1/webhooks', {}, key);
    await call('GET', '/v1/webhooks/{webhookId}', { webhookId }, key);
    await call('PATCH', '/v1/webhooks/{webhookId}', { webhookId }, { ...key, body: { status: 'paused' } });
    await call('POST', '/v1/webhooks/{webhookId}/recover', { webhookId }, { ...key, body: { since: 0 } }); // 409 paused
    await call('POST', '/v1/webhooks/{webhookId}/rotate-secret', { webhookId }, key);
    await call('GET', '/v1/webhooks/{webhookId}/deliveries', { webhookId }, key);
    await call('GET', '/v1/webhooks/{webhookId}/history', { webhookId }, key);
    await call('DELETE', '/v1/webhooks/{webhookId}', { webhookId }, key);

    // The documented example requests are requests the service accepts.
    for (const [template, params] of [
      ['/v1/projects', {}],
      ['/v1/projects/{projectId}/jobs', { projectId }],
    ] as const) {
      const examples = Object.entries(
        document.paths[template].post.requestBody.content['application/json'].examples ?? {},
      );
      expect({ template, examples: examples.length > 0 }).toEqual({ template, examples: true });
      for (const [name, example] of examples) {
        const res = await call('POST', template, params, { ...key, body: (example as Json).value });
        expect({ template, name, status: res.status, body: res.body }).toEqual({
          template,
          name,
          status: 201,
          body: { id: expect.any(String) },
        });
      }
    }

    await call('GET', '/v1/events', {}, key);
    await call('DELETE', '/v1/projects/{projectId}', { projectId }, key);
    await call('GET', '/health', {});
    await call('GET', '/ready', {});

    const statuses = samples.map((s) => `${s.method} ${s.path} ${s.status}`);
    expect(statuses).toEqual(
      expect.arrayContaining([
        'POST /v1/admin/workspaces 201',
        'GET /v1/admin/projections 403',
        'POST /v1/projects 201',
        'POST /v1/projects 400',
        'POST /v1/projects 403',
        'GET /v1/projects/{projectId} 404',
        'POST /v1/projects/{projectId}/jobs/{jobId}/assign 200',
        'POST /v1/projects/{projectId}/jobs/{jobId}/unassign 404',
        'DELETE /v1/job-types/{jobTypeId} 400',
        'POST /v1/webhooks 201',
        'POST /v1/webhooks/{webhookId}/recover 409',
        'DELETE /v1/projects/{projectId} 204',
      ]),
    );
    const result = await validate(document, samples);
    expect(result.sampleErrors).toEqual([]);
  });

  it('is served with its content type and validators: ETag, 304 on If-None-Match, no caching without revalidation', async () => {
    expect(served.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(served.headers.get('cache-control')).toBe('no-cache');
    const etag = served.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await t.request('GET', '/openapi.json', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // Public, outside /v1 like /health: no key needed, and the same document every time.
    expect((await t.request('GET', '/openapi.json', { token: 'v1_whatever' })).headers.get('etag')).toBe(etag);
    expect((await t.request('GET', '/v1/openapi.json')).status).toBe(404);
  });
});

describe('Swagger UI (/docs)', () => {
  const t = useTestApp();

  it('serves the page and only the files it uses, from swagger-ui-dist, with content types and cache headers', async () => {
    const page = await t.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const assets = [...page.text.matchAll(/(?:href|src)="(\/docs\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.map((a) => a.split('?')[0]).sort()).toEqual([
      '/docs/favicon-16x16.png',
      '/docs/favicon-32x32.png',
      '/docs/index.css',
      '/docs/swagger-initializer.js',
      '/docs/swagger-ui-bundle.js',
      '/docs/swagger-ui.css',
    ]);
    const types: Record<string, string> = {
      css: 'text/css; charset=utf-8',
      js: 'text/javascript; charset=utf-8',
      png: 'image/png',
    };
    for (const asset of assets) {
      const res = await fetch(t.baseUrl + asset);
      expect({ asset, status: res.status, type: res.headers.get('content-type') }).toEqual({
        asset,
        status: 200,
        type: types[asset.split('?')[0].split('.').pop()!],
      });
      // The URL carries a digest of the content: cached for good.
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
      const etag = res.headers.get('etag')!;
      const conditional = await fetch(t.baseUrl + asset, { headers: { 'if-none-match': etag } });
      expect(conditional.status).toBe(304);
      await conditional.arrayBuffer();
    }
    const initializer = await t.request('GET', '/docs/swagger-initializer.js');
    expect(initializer.text).toContain('"/openapi.json"');
    for (const path of [
      '/docs/package.json',
      '/docs/..%2Fpackage.json',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/index.html',
    ]) {
      const res = await t.request('GET', path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body).toEqual({ message: expect.stringMatching(/^Route GET \/docs\/.* not found$/) });
    }
  });

  const CHROMIUM = '/usr/bin/chromium';
  const haveChromium = existsSync(CHROMIUM);
  const title = 'renders the operations in headless Chromium (POST /v1/projects, GET /v1/team, ...)';
  (haveChromium ? it : it.skip)(
    haveChromium ? title : `${title} — SKIPPED: ${CHROMIUM} not found (Debian's chromium package; .ci/run installs it)`,
    async () => {
      const spec = (await t.request('GET', '/openapi.json')).body as Json;
      // Swagger UI shows the webhook deliveries (the document's `webhooks`) as operations too.
      const operationCount = operations(spec).length + Object.keys(spec.webhooks ?? {}).length;
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
        });
        await page.goto(`${t.baseUrl}/docs`, { waitUntil: 'load' });
        await page.waitForSelector('.opblock', { timeout: 20_000 });
        await page.waitForFunction(
          (count) =>
            (
              globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
            ).document.querySelectorAll('.opblock').length === count,
          operationCount,
          { timeout: 20_000 },
        );
        expect(problems).toEqual([]);

        const summary = (method: string, path: string) =>
          page.locator(`.opblock-${method} .opblock-summary:has([data-path="${path}"])`);
        await expect(summary('post', '/v1/projects').count()).resolves.toBe(1);
        await expect(summary('get', '/v1/team').count()).resolves.toBe(1);
        await expect(summary('patch', '/v1/projects/{projectId}/jobs/{jobId}').count()).resolves.toBe(1);
        await expect(summary('post', '/v1/admin/workspaces').count()).resolves.toBe(1);
        await expect(page.locator('.info .title').innerText()).resolves.toContain('Workspace Operations API');
        // The bearer schemes: Swagger UI offers to authorize.
        await expect(page.locator('.btn.authorize').count()).resolves.toBe(1);

        // An operation opens with its parameters, body example and responses (the auth error among them).
        await summary('post', '/v1/projects').first().click();
        const opened = page.locator('.opblock-post.is-open').first();
        await opened.locator('.responses-table').first().waitFor({ timeout: 10_000 });
        const text = await opened.innerText();
        for (const expected of ['Idempotency-Key', 'Dam inspection', '201', '400', '403', '429', 'invalid_api_key'])
          expect(text).toContain(expected);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
