import { servedDirectly } from '../../apps/api/src/http/direct-routes';
import { today } from '../support/dates';
import { fillPath, RouteInfo, routeInventory, WRITE_METHODS } from '../support/route-inventory';
import { ADMIN_TOKEN, HttpResult, TestApp } from '../support/test-app';

/**
 * Routes served without NestJS's per-request router (http/direct-routes.ts) must answer exactly as
 * NestJS's router does. Two services, one with direct routes (the default) and one with NestJS's
 * router on every route, are given the same requests; their answers must be the same, once the
 * generated values (ids, keys, times) are replaced by placeholders.
 */
describe('Routes served directly', () => {
  let direct: TestApp;
  let nest: TestApp;
  const routes = routeInventory().filter((route) => route.audience !== 'public');

  beforeAll(async () => {
    [direct, nest] = await Promise.all([TestApp.start(), TestApp.start({}, undefined, { directRoutes: false })]);
  });
  afterAll(() => Promise.all([direct?.stop(), nest?.stop()]));

  it('are every API route but those that take the raw request or reply', () => {
    const served = new Set(servedDirectly(direct.app));
    expect(servedDirectly(nest.app)).toEqual([]);
    for (const hot of [
      'GET /v1/projects/:projectId',
      'GET /v1/projects',
      'POST /v1/projects',
      'PATCH /v1/projects/:projectId/jobs/:jobId',
    ]) {
      expect(served).toContain(hot);
    }
    // Probes, metrics and the API docs take @Req/@Res and stay on NestJS's router.
    for (const probe of ['GET /health', 'GET /ready', 'GET /metrics', 'GET /openapi.json'])
      expect(served).not.toContain(probe);
    const onNest = routes.map((r) => `${r.method} ${r.path}`).filter((key) => !served.has(key));
    // No API route takes the raw reply (the event export streams a StreamableFile).
    expect(onNest).toEqual([]);
  });

  it('answer every request as NestJS router answers it', async () => {
    const [a, b] = await Promise.all([conversation(direct), conversation(nest)]);
    expect(a.length).toBeGreaterThan(250);
    expect(a.map((x) => x.request)).toEqual(b.map((x) => x.request));
    for (let i = 0; i < a.length; i++)
      expect({ request: a[i].request, ...a[i].answer }).toEqual({ request: b[i].request, ...b[i].answer });
  });

  /** The same requests, in the same order, to one service; each with its answer made comparable. */
  async function conversation(t: TestApp) {
    const keys = await t.provision();
    const log: { request: string; answer: ReturnType<typeof comparable> }[] = [];
    const call = async (method: string, path: string, token: string | undefined, what: string, options: Sent = {}) => {
      const answer = await t.request(method, path, { token, ...options });
      log.push({ request: `${method} ${what}`, answer: comparable(answer) });
      return answer;
    };
    const send = (route: RouteInfo, path: string, token: string | undefined, what: string, options: Sent = {}) =>
      call(route.method, path, token, `${route.path} ${what}`, options);

    // Writes that succeed, conditional and idempotent ones.
    const newProject = { name: 'Dam', description: 'Spillway', status: 'planned', start_date: today() };
    const project = await call('POST', '/v1/projects', keys.fullKey, 'a project', { body: newProject });
    const jobs = `/v1/projects/${project.body.id}/jobs`;
    const job = await call('POST', jobs, keys.fullKey, 'a job', {
      body: { name: 'Survey', type: 'drone_inspection', job_pattern: 'one_time', start_date: today() },
    });
    expect([project.status, job.status]).toEqual([201, 201]);
    const projectPath = `/v1/projects/${project.body.id}`;
    const updated = await call('PATCH', projectPath, keys.fullKey, 'a project', { body: { name: 'Dam 2' } });
    await call('PATCH', projectPath, keys.fullKey, 'with a stale If-Match', {
      body: { name: 'Dam 3' },
      headers: { 'if-match': '"0"' },
    });
    await call('PATCH', projectPath, keys.fullKey, 'with the current If-Match', {
      body: { name: 'Dam 4' },
      headers: { 'if-match': updated.headers.get('etag') ?? '' },
    });
    await call('PATCH', `${jobs}/${job.body.id}`, keys.fullKey, 'a job', { body: { inspection_notes: 'North face' } });
    await call('POST', '/v1/job-types', keys.fullKey, 'a job type', { body: { name: 'Thermal' } });
    for (const what of ['with an Idempotency-Key', 'replayed'])
      await call('POST', '/v1/projects', keys.fullKey, what, {
        body: newProject,
        headers: { 'idempotency-key': 'direct-routes-1' },
      });

    const known: Record<string, string> = { projectId: project.body.id, jobId: job.body.id };
    const unknown = (name: string) =>
      name === 'position' ? '999999' : name === 'projection' ? 'projects' : `${name}_missing`;
    const pathOf = (route: RouteInfo, values: 'known' | 'unknown') =>
      fillPath(route, Object.fromEntries(route.params.map((p) => [p, (values === 'known' && known[p]) || unknown(p)])));

    for (const route of routes) {
      const operator = route.audience === 'operator';
      const rightToken = operator ? ADMIN_TOKEN : keys.fullKey;
      const unknownPath = pathOf(route, 'unknown');
      await send(route, unknownPath, undefined, 'without credentials');
      await send(route, unknownPath, operator ? keys.fullKey : ADMIN_TOKEN, 'with the other audience');
      if (!operator) await send(route, pathOf(route, 'known'), keys.readKey, 'with a read-only key');
      if (route.method === 'POST' || route.method === 'PATCH') {
        const path = pathOf(route, 'known');
        await send(route, path, rightToken, 'with an array body', { body: [] });
        await send(route, path, rightToken, 'with an unknown field', { body: { not_a_field: 1 } });
        await send(route, path, rightToken, 'with a text body', {
          rawBody: 'name=x',
          headers: { 'content-type': 'text/plain' },
        });
      }
      if (WRITE_METHODS.has(route.method)) {
        await send(route, unknownPath, rightToken, 'on unknown ids', { body: {} });
      } else {
        const read = await send(route, pathOf(route, 'known'), rightToken, 'on known ids');
        const etag = read.headers.get('etag');
        if (etag)
          await send(route, pathOf(route, 'known'), rightToken, 'if none match', {
            headers: { 'if-none-match': etag },
          });
        await send(route, `${pathOf(route, 'known')}?as_of=yesterday&cursor=%%`, rightToken, 'with bad query values');
        if (route.params.length > 0)
          await send(route, route.path.replace(/:[A-Za-z0-9_]+/g, ''), rightToken, 'with empty ids');
      }
    }
    return log;
  }
});

type Sent = { body?: unknown; rawBody?: string; headers?: Record<string, string> };

const GENERATED = [
  /\b[a-z]{2,5}_[A-Za-z0-9_-]{16,}\b/g, // ids and API keys
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, // event and request ids
  /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, // instants
  /\b\d{13}\b/g, // instants in milliseconds
];

/** Status, body and the headers a client acts on, with generated values replaced by placeholders. */
function comparable(answer: HttpResult) {
  let text = answer.text;
  for (const pattern of GENERATED) text = text.replace(pattern, '<generated>');
  return {
    status: answer.status,
    body: text,
    contentType: answer.headers.get('content-type'),
    etag: answer.headers.get('etag'),
    location: answer.headers.get('location'),
    retryAfter: answer.headers.get('retry-after'),
  };
}
