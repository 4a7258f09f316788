import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectionEngine, RecordedEvent } from '@app/application';
import { ConsoleClient } from '../../support/console';
import { csrfOf } from '../../support/dashboard';
import { ADMIN_TOKEN, TestApp } from '../../support/test-app';

const project = { name: 'Dam inspection', description: 'Spillway', status: 'planned', start_date: '2030-01-01' };

/**
 * Makes the `projects` projector throw on the creation of a project named `name` while `broken`
 * is set: the test build's poison event, never in the service's configuration.
 */
function poisonProjects(t: TestApp, name: string) {
  const projector = t.app.get(ProjectionEngine).projector('projects')!;
  const original = projector.project.bind(projector);
  const state = { broken: true };
  jest.spyOn(projector, 'project').mockImplementation((event: RecordedEvent) => {
    if (state.broken && (event.data as { name?: string }).name === name) throw new Error(`cannot project ${name}`);
    return original(event);
  });
  return state;
}

/** A subscription to a loopback port nobody listens on fails at once; three failures pause it. */
const FAILING_WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_DELAYS_MS: '0,20,20,20',
  WEBHOOK_PAUSE_AFTER_FAILURES: '3',
};
const UNREACHABLE = 'https://127.0.0.1:9/hooks';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;');

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('The console’s operations screens (projections, deliveries, topology)', () => {
  let dir: string;
  let t: TestApp;
  let replica: TestApp;
  let console_: ConsoleClient;
  let operator: string;
  let auditor: string;
  let fullKey: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-console-ops-'));
    t = await TestApp.start({ PROJECTIONS: 'inline', ...FAILING_WEBHOOKS }, dir);
    replica = await TestApp.start({ PROJECTIONS: 'external' }, dir);
    console_ = new ConsoleClient(t.baseUrl);
    fullKey = (await t.provision()).fullKey;
    const credential = async (role: string) =>
      (await t.admin('POST', '/operators', { name: `Ops ${role}`, role })).body.token as string;
    operator = await console_.signIn(await credential('operator'));
    auditor = await console_.signIn(await credential('auditor'));
  });

  afterAll(async () => {
    await replica?.stop();
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => jest.restoreAllMocks());

  const deadLetters = async () => (await t.admin('GET', '/projections/dead-letters')).body.dead_letters as any[];

  it('shows each projection’s checkpoint, head, lag and state, and serves the same figures as JSON for the live page', async () => {
    const page = await console_.page('GET', '/console/projections', { cookie: operator });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const status = (await t.admin('GET', '/projections')).body;
    for (const p of status.projections) {
      expect(page.html).toContain(`<tr data-projection="${p.name}">`);
      expect(page.html).toContain(`data-live-field="${p.name}.lag"`);
    }
    expect(page.html).toContain('data-live-url="/console/projections/live"');
    expect(page.html).toContain('id="lag-chart"');
    expect(page.html).toContain('action="/console/projections/rebuild"');

    const live = await console_.page('GET', '/console/projections/live', { cookie: operator });
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toContain('application/json');
    const update = JSON.parse(live.html);
    expect(update.fields.role).toBe('projector');
    expect(update.badges['projects.state']).toBe('ok');
    expect(update.charts['lag-chart'].series.map((s: { label: string }) => s.label)).toEqual(
      status.projections.map((p: { name: string }) => p.name),
    );
    expect((await console_.page('GET', '/console/projections/live')).status).toBe(401);
  });

  it('rebuilds a projection and reports its progress until it ends', async () => {
    const page = await console_.page('GET', '/console/projections', { cookie: operator });
    const started = await console_.page('POST', '/console/projections/rebuild', {
      cookie: operator,
      form: { _csrf: csrfOf(page.html), name: 'projects' },
    });
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toBe('/console/projections?rebuild=projects');
    const live = await until(
      'the rebuild to end',
      async () => JSON.parse((await console_.page('GET', '/console/projections/live', { cookie: operator })).html),
      (u) => /^(Done|Failed)/.test(u.fields['projects.rebuild']),
    );
    expect(live.fields['projects.rebuild']).toMatch(/^Done: \d+ events in [\d.]+ s, swapped in$/);
    expect(live.progress['projects.rebuild']).toBe(100);
    const after = await console_.page('GET', '/console/projections?rebuild=projects', { cookie: operator });
    expect(after.html).toContain('Rebuild started: projects.');
  });

  it('shows a dead letter with its event and error; retry fails while the projector throws, applies once fixed, and the letter is gone', async () => {
    const poison = poisonProjects(t, 'Poisoned survey');
    expect(
      (await t.request('POST', '/v1/projects', { token: fullKey, body: { ...project, name: 'Poisoned survey' } }))
        .status,
    ).toBe(201);
    const [letter] = await until('the dead letter', deadLetters, (l) => l.length === 1);

    const page = await console_.page('GET', '/console/projections', { cookie: operator });
    expect(page.html).toContain(`<tr data-dead-letter="projects/${letter.position}">`);
    expect(page.html).toContain(`<code>${letter.streamId}</code>`);
    expect(page.html).toContain(`<code>${letter.eventId}</code>`);
    expect(page.html).toContain('cannot project Poisoned survey');
    expect(page.html).toContain('data-state="degraded"');
    const retryPath = `/console/projections/dead-letters/projects/${letter.position}/retry`;
    expect(page.html).toContain(`action="${retryPath}"`);

    const failed = await console_.page('POST', retryPath, { cookie: operator, form: { _csrf: csrfOf(page.html) } });
    expect(failed.headers.get('location')).toBe('/console/projections?retried=failed#dead-letters-title');
    expect((await deadLetters())[0].attempts).toBe(2);

    poison.broken = false;
    const applied = await console_.page('POST', retryPath, { cookie: operator, form: { _csrf: csrfOf(page.html) } });
    expect(applied.headers.get('location')).toBe('/console/projections?retried=applied#dead-letters-title');
    expect(await deadLetters()).toEqual([]);
    const after = await console_.page('GET', '/console/projections?retried=applied', { cookie: operator });
    expect(after.html).toContain('the dead letter is gone');
    expect(after.html).not.toContain('data-dead-letter=');
  });

  it('skips a dead letter after asking', async () => {
    poisonProjects(t, 'Skipped survey');
    await t.request('POST', '/v1/projects', { token: fullKey, body: { ...project, name: 'Skipped survey' } });
    const [letter] = await until('the dead letter', deadLetters, (l) => l.length === 1);
    const path = `/console/projections/dead-letters/projects/${letter.position}/skip`;
    const confirm = await console_.page('GET', path, { cookie: operator });
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Skip this dead letter?');
    const skipped = await console_.page('POST', path, { cookie: operator, form: { _csrf: csrfOf(confirm.html) } });
    expect(skipped.headers.get('location')).toBe('/console/projections?skipped=1#dead-letters-title');
    expect(await deadLetters()).toEqual([]);
  });

  it('verifies the read models and shows each difference (the skipped project is missing from its read model)', async () => {
    const page = await console_.page('GET', '/console/projections', { cookie: auditor });
    const verified = await console_.page('POST', '/console/projections/verify', {
      cookie: auditor,
      form: { _csrf: csrfOf(page.html) },
    });
    expect(verified.status).toBe(200);
    expect(verified.html).toContain('1 difference among');
    expect(verified.html).toContain('<td data-label="Kind">missing</td>');
    expect(verified.html).toContain('&quot;name&quot;: &quot;Skipped survey&quot;');
  });

  it('shows an auditor no write control and refuses the writes posted anyway (403), as the operator API does', async () => {
    poisonProjects(t, 'Audited survey');
    await t.request('POST', '/v1/projects', { token: fullKey, body: { ...project, name: 'Audited survey' } });
    const [letter] = await until('the dead letter', deadLetters, (l) => l.length === 1);
    const page = await console_.page('GET', '/console/projections', { cookie: auditor });
    expect(page.html).toContain(`data-dead-letter="projects/${letter.position}"`);
    expect(page.html).not.toContain('action="/console/projections/rebuild"');
    expect(page.html).not.toContain('/retry"');
    expect(page.html).not.toContain('/skip"');
    const form = { _csrf: csrfOf(page.html) };
    for (const path of [
      '/console/projections/rebuild',
      `/console/projections/dead-letters/projects/${letter.position}/retry`,
      `/console/projections/dead-letters/projects/${letter.position}/skip`,
    ]) {
      const refused = await console_.page('POST', path, { cookie: auditor, form });
      expect({ path, status: refused.status }).toEqual({ path, status: 403 });
      expect(refused.html).toContain('may only read');
    }
    expect(
      (
        await console_.page('GET', `/console/projections/dead-letters/projects/${letter.position}/skip`, {
          cookie: auditor,
        })
      ).status,
    ).toBe(403);
    expect((await deadLetters()).length).toBe(1);
    await t.admin('POST', `/projections/dead-letters/projects/${letter.position}/skip`);
  });

  it('on a replica shows the same projections and refuses the projector’s actions with the operator API’s answer', async () => {
    const onReplica = new ConsoleClient(replica.baseUrl);
    const cookie = await onReplica.signIn(ADMIN_TOKEN);
    const page = await onReplica.page('GET', '/console/projections', { cookie });
    expect(page.status).toBe(200);
    expect(page.html).toContain('This process is an API replica');
    const projector = (await t.admin('GET', '/projections')).body.projections;
    const live = JSON.parse((await onReplica.page('GET', '/console/projections/live', { cookie })).html);
    expect(live.fields.role).toBe('replica');
    for (const p of projector) expect(live.fields[`${p.name}.checkpoint`]).toBe(p.checkpoint.toLocaleString('en'));

    const api = await replica.admin('POST', '/projections/rebuild', { name: 'projects' });
    expect(api.status).toBe(409);
    const form = { _csrf: csrfOf(page.html) };
    for (const [path, apiPath] of [
      ['/console/projections/rebuild', '/projections/rebuild'],
      ['/console/projections/verify', '/events/verify'],
      ['/console/projections/dead-letters/projects/1/retry', '/projections/dead-letters/projects/1/retry'],
      ['/console/projections/dead-letters/projects/1/skip', '/projections/dead-letters/projects/1/skip'],
    ]) {
      const refused = await onReplica.page('POST', path, { cookie, form });
      const answer = await replica.admin('POST', apiPath);
      expect({ path, status: refused.status }).toEqual({ path, status: answer.status });
      expect(answer.status).toBe(409);
      expect(refused.html).toContain(escapeHtml(answer.body.message));
    }
    const topology = await onReplica.page('GET', '/console/topology', { cookie });
    expect(topology.html).toContain('API replica');
  });

  it('shows deliveries across workspaces and the topology; the operator route answers the same figures', async () => {
    const webhook = await t.request('POST', '/v1/webhooks', {
      token: fullKey,
      body: { name: 'Ops feed', url: UNREACHABLE, event_types: ['project.created'] },
    });
    expect(webhook.status).toBe(201);
    await t.request('POST', '/v1/projects', { token: fullKey, body: { ...project, name: 'Delivered survey' } });
    const paused = await until(
      'the subscription to pause',
      async () => (await t.admin('GET', '/deliveries')).body,
      // Paused, and its last delivery settled as failed (the pause is recorded first).
      (o) =>
        o.subscriptions.some((s: { status: string }) => s.status === 'paused') &&
        o.backlog.pending + o.backlog.retrying === 0,
    );
    expect(paused.subscriptions).toEqual([
      {
        id: webhook.body.id,
        workspace_id: webhook.body.workspace_id ?? expect.any(String),
        url: UNREACHABLE,
        status: 'paused',
        failure_count: 3,
        last_attempt_at: expect.any(Number),
        last_response_status: null,
        pause_reason: 'consecutive_failures',
        paused_at: expect.any(Number),
      },
    ]);
    expect(paused.attempts.reduce((n: number, a: { failed: number }) => n + a.failed, 0)).toBe(3);
    const deliveries = await console_.page('GET', '/console/deliveries', { cookie: auditor });
    expect(deliveries.status).toBe(200);
    expect(deliveries.html).toContain('id="deliveries-chart"');
    expect(deliveries.html).toContain('data-backlog="pending"');
    expect(deliveries.html).toContain(`<tr data-webhook="${webhook.body.id}">`);
    expect(deliveries.html).toContain(`<code>${UNREACHABLE}</code>`);
    expect(deliveries.html).toContain('Too many consecutive failures');
    expect(deliveries.html).toContain('0 succeeded and 3 failed over the last 24 hours');
    const json = await t.request('GET', '/v1/admin/deliveries', { token: ADMIN_TOKEN });
    expect(json.status).toBe(200);
    expect(paused.backlog).toEqual({ pending: 0, retrying: 0 });
    expect(json.body).toEqual(paused);
    expect(json.body.attempts).toHaveLength(24);
    expect((await t.request('GET', '/v1/admin/deliveries', { token: fullKey })).status).toBe(403);

    const topology = await console_.page('GET', '/console/topology', { cookie: operator });
    expect(topology.status).toBe(200);
    const ready = (await t.request('GET', '/ready')).body;
    expect(topology.html).toContain(`<dd data-check="projections">${ready.checks.projections}</dd>`);
    expect(topology.html).toContain('Projector');
    expect(topology.html).toContain('id="events-chart"');
    expect(topology.html).toMatch(/\d+ events recorded in the last 30 minutes/);
  });
});
