import Database from '@app/infrastructure/sqlite/sqlite-driver';
import { join } from 'node:path';
import { TestApp, useTestApp } from '../../support/test-app';
import {
  createKeyInDashboard,
  csrfOf,
  dashboard,
  setStatusLabels,
  signIn,
  workspaceWithMembers,
} from '../../support/dashboard';

/**
 * The dashboard's projects, jobs and status display names over HTTP (docs/dashboard.md): the
 * labels as a setting of the workspace (validated, audited, verified with the read models, never
 * reaching the API), the projects' list with its filters, a project and a job with their
 * timelines, roles, CSRF and workspaces kept apart.
 */

const STATUS_MESSAGE =
  'status must be one of: draft, not_started, planned, in_progress, completed, on_hold, weather_delayed, technical_issues, cancelled, aborted, other';

/** A date this many days from today: jobs start within six months of it. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const PROJECT_START = inDays(10);
const JOB_START = inDays(30);

/** A workspace with a root, a project manager and a pilot, an API key of its root, a project with a job. */
async function workspaceWithProject(t: TestApp, name: string) {
  const ws = await workspaceWithMembers(t, name, ['root', 'project_manager', 'pilot']);
  const root = await signIn(t, ws.workspaceId, ws.members.root);
  const secret = await createKeyInDashboard(t, root, `${name} bot`);
  const api = (method: string, path: string, body?: unknown) =>
    t.request(method, `/v1${path}`, { token: secret, body });
  const project = await api('POST', '/projects', {
    name: `${name} north tower`,
    description: `${name} survey`,
    status: 'planned',
    start_date: PROJECT_START,
  });
  expect(project.status).toBe(201);
  const projectId = project.body.id as string;
  const job = await api('POST', `/projects/${projectId}/jobs`, {
    name: `${name} blade scan`,
    type: 'wind_turbine',
    job_pattern: 'one_time',
    start_date: JOB_START,
  });
  expect(job.status).toBe(201);
  return { ...ws, root, secret, api, projectId, jobId: job.body.id as string };
}

describe('Dashboard: projects, jobs and status display names', () => {
  const t = useTestApp({ RATE_LIMIT_PER_MINUTE: '1000000', RATE_LIMIT_PER_SECOND: '1000000' });

  describe('status display names', () => {
    it('are set by a member, shown on the projects list, audited, while the API answers the predefined values', async () => {
      const ws = await workspaceWithProject(t, 'Labels');
      await ws.api('PATCH', `/projects/${ws.projectId}`, { status: 'in_progress' });

      const saved = await setStatusLabels(t, ws.root, { in_progress: '  Flying now  ', draft: '' });
      expect(saved.status).toBe(303);
      expect(saved.headers.get('location')).toBe('/dashboard/settings/statuses?notice=saved');
      const form = await dashboard(t, 'GET', '/dashboard/settings/statuses?notice=saved', { cookie: ws.root });
      expect(form.html).toContain('The display names were saved.');
      expect(form.html).toContain('value="Flying now"');

      const list = await dashboard(t, 'GET', '/dashboard/projects', { cookie: ws.root });
      expect(list.status).toBe(200);
      expect(list.html).toMatch(/data-status="in_progress">Flying now</);
      const project = await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}`, { cookie: ws.root });
      expect(project.html).toMatch(/data-status="in_progress">Flying now</);
      // The status filter offers the label, for the predefined value.
      expect(project.html).toContain('<option value="in_progress">Flying now</option>');

      // The API keeps the predefined value everywhere.
      const apiList = await ws.api('GET', '/projects');
      expect(apiList.body.projects.map((p: { status: string }) => p.status)).toEqual(['in_progress']);
      expect(JSON.stringify(apiList.body)).not.toContain('Flying');
      const apiProject = await ws.api('GET', `/projects/${ws.projectId}`);
      expect(apiProject.body.status).toBe('in_progress');
      expect((await ws.api('GET', '/projects?status=in_progress')).body.count).toBe(1);

      // The change is the member's, in the workspace's audit feed; not a webhook event type.
      const feed = await ws.api('GET', '/events?type=workspace.status_labels_changed');
      expect(feed.body.events).toHaveLength(1);
      expect(feed.body.events[0]).toMatchObject({
        actor: { type: 'member', id: ws.members.root },
        change: { changes: { in_progress: 'Flying now' }, labels: { in_progress: 'Flying now' } },
      });
      const hook = await ws.api('POST', '/webhooks', {
        name: 'Labels hook',
        url: 'https://93.184.216.34/hooks',
        event_types: ['workspace.status_labels_changed'],
      });
      expect(hook.status).toBe(400);

      // An empty name gives the default back.
      expect((await setStatusLabels(t, ws.root, { in_progress: '' })).status).toBe(303);
      const reset = await dashboard(t, 'GET', '/dashboard/projects', { cookie: ws.root });
      expect(reset.html).toMatch(/data-status="in_progress">In progress</);
    });

    it('refuse a name too long or with control characters next to its field, naming the status, and keep the rest', async () => {
      const ws = await workspaceWithProject(t, 'Invalid');
      const res = await setStatusLabels(t, ws.root, {
        completed: 'x'.repeat(41),
        on_hold: 'Paused\u0007',
        planned: 'Booked',
      });
      expect(res.status).toBe(400);
      expect(res.html).toContain('label for completed must be between 1 and 40 characters');
      expect(res.html).toContain('label for on_hold must not contain control characters');
      expect(res.html).toMatch(/id="label_completed"[^>]*aria-describedby="label_completed-error" aria-invalid="true"/);
      expect(res.html).toContain('id="label_completed-error"');
      // What was typed comes back; nothing was saved.
      expect(res.html).toContain('value="Booked"');
      const feed = await ws.api('GET', '/events?type=workspace.status_labels_changed');
      expect(feed.body.events).toEqual([]);
    });

    it('are read by every role; a pilot cannot change them (403), and the form needs the CSRF token', async () => {
      const ws = await workspaceWithProject(t, 'Pilots');
      const pilot = await signIn(t, ws.workspaceId, ws.members.pilot);
      const page = await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie: pilot });
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('Save names');
      const refused = await dashboard(t, 'POST', '/dashboard/settings/statuses', {
        cookie: pilot,
        form: { _csrf: csrfOf(page.html), label_draft: 'Pilot idea' },
      });
      expect(refused.status).toBe(403);
      expect(refused.html).toContain('Your role does not allow you to change the status display names.');

      const manager = await signIn(t, ws.workspaceId, ws.members.project_manager);
      const managerPage = await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie: manager });
      expect(managerPage.html).toContain('Save names');
      for (const [what, form, headers] of [
        ['no token', { label_draft: 'Forged' }, {}],
        ['a wrong token', { _csrf: 'x'.repeat(43), label_draft: 'Forged' }, {}],
        [
          'another site',
          { _csrf: csrfOf(managerPage.html), label_draft: 'Forged' },
          { 'sec-fetch-site': 'cross-site' },
        ],
      ] as const) {
        const res = await dashboard(t, 'POST', '/dashboard/settings/statuses', { cookie: manager, form, headers });
        expect({ what, status: res.status }).toEqual({ what, status: 403 });
      }
      expect((await ws.api('GET', '/events?type=workspace.status_labels_changed')).body.events).toEqual([]);
      const ok = await dashboard(t, 'POST', '/dashboard/settings/statuses', {
        cookie: manager,
        form: { _csrf: csrfOf(managerPage.html), label_draft: 'Idea' },
      });
      expect(ok.status).toBe(303);
      const asPilot = await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie: pilot });
      expect(asPilot.html).toContain('>Idea</span>');
    });

    it('are in the read models that events verify checks and a rebuild restores', async () => {
      const ws = await workspaceWithProject(t, 'Verified');
      expect((await setStatusLabels(t, ws.root, { on_hold: 'Grounded' })).status).toBe(303);
      expect((await t.admin('POST', '/events/verify')).body.differences).toEqual([]);

      const db = new Database(join(t.dataDir, 'read-models.db'));
      const row = db.prepare('SELECT doc FROM rm_workspaces WHERE id = ?').get(ws.workspaceId) as { doc: string };
      const tampered = { ...JSON.parse(row.doc), status_labels: { on_hold: 'Tampered' } };
      db.prepare('UPDATE rm_workspaces SET doc = ? WHERE id = ?').run(JSON.stringify(tampered), ws.workspaceId);
      db.close();
      const drift = await t.admin('POST', '/events/verify');
      expect(drift.body.differences).toEqual([
        expect.objectContaining({ kind: 'different', collection: 'workspaces', id: ws.workspaceId }),
      ]);

      expect((await t.admin('POST', '/projections/rebuild', { name: 'workspaces' })).status).toBe(202);
      for (let i = 0; i < 200; i++) {
        const status = await t.admin('GET', '/projections');
        const entry = status.body.projections.find((p: { name: string }) => p.name === 'workspaces');
        if (entry.rebuild?.state === 'done') break;
        await new Promise((r) => setTimeout(r, 25));
      }
      expect((await t.admin('POST', '/events/verify')).body.differences).toEqual([]);
      const page = await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie: ws.root });
      expect(page.html).toContain('value="Grounded"');
    });
  });

  describe('projects', () => {
    it('are listed with a filter by status and a search by name; bad filters are a 400 naming the field', async () => {
      const ws = await workspaceWithProject(t, 'Lists');
      for (const [name, status] of [
        ['South TOWER', 'on_hold'],
        ['River bridge', 'on_hold'],
      ]) {
        const res = await ws.api('POST', '/projects', { name, description: 'd', status, start_date: PROJECT_START });
        expect(res.status).toBe(201);
      }
      const names = (html: string) =>
        [...html.matchAll(/href="\/dashboard\/projects\/prj_[^"]+">([^<]+)</g)].map((m) => m[1]);
      const get = (query: string) => dashboard(t, 'GET', `/dashboard/projects${query}`, { cookie: ws.root });

      expect(names((await get('')).html)).toEqual(['Lists north tower', 'South TOWER', 'River bridge']);
      expect(names((await get('?status=on_hold')).html)).toEqual(['South TOWER', 'River bridge']);
      expect(names((await get('?q=tower')).html)).toEqual(['Lists north tower', 'South TOWER']);
      expect(names((await get('?q=+Tower+&status=on_hold')).html)).toEqual(['South TOWER']);
      const none = await get('?q=nothing+like+it');
      expect(names(none.html)).toEqual([]);
      expect(none.html).toContain('No project matches.');

      const badStatus = await get('?status=finished');
      expect(badStatus.status).toBe(400);
      expect(badStatus.html).toContain(STATUS_MESSAGE);
      const badSearch = await get(`?q=${'x'.repeat(101)}`);
      expect(badSearch.status).toBe(400);
      expect(badSearch.html).toContain('q must be at most 100 characters');
      expect((await get('?cursor=bm9wZQ')).status).toBe(400);
    });

    it("a project's page shows its fields, its jobs by status and its timeline: who changed what, when", async () => {
      const ws = await workspaceWithProject(t, 'Timeline');
      await ws.api('PATCH', `/projects/${ws.projectId}`, { status: 'in_progress', description: 'Now flying' });
      const second = await ws.api('POST', `/projects/${ws.projectId}/jobs`, {
        name: 'Tower climb',
        type: 'cell_tower',
        job_pattern: 'one_time',
        start_date: JOB_START,
        status: 'completed',
      });
      expect(second.status).toBe(201);
      await setStatusLabels(t, ws.root, { completed: 'Done and dusted' });

      const page = await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}`, { cookie: ws.root });
      expect(page.status).toBe(200);
      expect(page.html).toContain('<h1>Timeline north tower</h1>');
      expect(page.html).toContain('Now flying');
      expect(page.html).toContain('Timeline blade scan');
      expect(page.html).toMatch(/data-status="completed">Done and dusted</);
      // The timeline: created then changed, by the API key, the change itself with the status's label.
      const timeline = page.html.slice(page.html.indexOf('id="timeline-title"'));
      expect(timeline).toMatch(/<strong>Created<\/strong> by API key “Timeline bot”/);
      expect(timeline).toMatch(/<strong>Changed<\/strong> by API key “Timeline bot”/);
      expect(timeline).toMatch(/<dt>status<\/dt><dd>In progress<\/dd>/);
      expect(timeline).toMatch(/<dt>description<\/dt><dd>Now flying<\/dd>/);

      const filtered = await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}?status=completed`, {
        cookie: ws.root,
      });
      expect(filtered.html).toContain('Tower climb');
      expect(filtered.html).not.toContain('Timeline blade scan');
    });

    it("a job's page shows the job, its assigned pilots and occurrences, and its timeline with members by name", async () => {
      const ws = await workspaceWithProject(t, 'Jobs');
      const assigned = await ws.api('POST', `/projects/${ws.projectId}/jobs/${ws.jobId}/assign`, {
        pilots: [ws.members.pilot],
      });
      expect(assigned.status).toBeLessThan(300);
      await ws.api('PATCH', `/projects/${ws.projectId}/jobs/${ws.jobId}`, { status: 'weather_delayed' });

      const page = await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}/jobs/${ws.jobId}`, {
        cookie: ws.root,
      });
      expect(page.status).toBe(200);
      expect(page.html).toContain('<h1>Jobs blade scan</h1>');
      expect(page.html).toMatch(/data-status="weather_delayed">Weather delayed</);
      expect(page.html).toContain('<li>Pat Pilot</li>');
      expect(page.html).toContain(`<td data-label="Date">${JOB_START}</td>`);
      const timeline = page.html.slice(page.html.indexOf('id="timeline-title"'));
      expect(timeline).toMatch(/<strong>Pilots assigned<\/strong>/);
      expect(timeline).toMatch(/<dt>pilot_ids<\/dt><dd>Pat Pilot<\/dd>/);
      expect(timeline).toMatch(/<dt>status<\/dt><dd>Weather delayed<\/dd>/);
      expect(page.html).toContain(`href="/dashboard/projects/${ws.projectId}">Jobs north tower</a>`);

      // A job under another project's id is not found.
      const other = await ws.api('POST', '/projects', {
        name: 'Other',
        description: 'd',
        status: 'planned',
        start_date: PROJECT_START,
      });
      const wrong = await dashboard(t, 'GET', `/dashboard/projects/${other.body.id}/jobs/${ws.jobId}`, {
        cookie: ws.root,
      });
      expect(wrong.status).toBe(404);
    });

    it('a deleted project keeps its timeline; one that never existed is not found', async () => {
      const ws = await workspaceWithProject(t, 'Deleted');
      expect((await ws.api('DELETE', `/projects/${ws.projectId}`)).status).toBeLessThan(300);
      const page = await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}`, { cookie: ws.root });
      expect(page.status).toBe(200);
      expect(page.html).toContain('This project was deleted.');
      expect(page.html).toMatch(/<strong>Deleted<\/strong> by API key “Deleted bot”/);
      const job = await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}/jobs/${ws.jobId}`, {
        cookie: ws.root,
      });
      expect(job.status).toBe(200);
      expect(job.html).toContain('This job was deleted.');
      for (const path of ['/dashboard/projects/prj_nope', `/dashboard/projects/prj_nope/jobs/job_nope`]) {
        const res = await dashboard(t, 'GET', path, { cookie: ws.root });
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
    });

    it('escape what was typed: project names and status labels', async () => {
      const ws = await workspaceWithProject(t, 'Escapes');
      await ws.api('PATCH', `/projects/${ws.projectId}`, { name: '"><img src=x onerror=alert(1)>' });
      await setStatusLabels(t, ws.root, { planned: '<b>bold</b>' });
      const list = await dashboard(t, 'GET', '/dashboard/projects', { cookie: ws.root });
      const page = await dashboard(t, 'GET', `/dashboard/projects/${ws.projectId}`, { cookie: ws.root });
      const labels = await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie: ws.root });
      for (const html of [list.html, page.html, labels.html]) {
        expect(html).not.toContain('<img src=x');
        expect(html).not.toContain('<b>bold</b>');
      }
      expect(list.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
      expect(list.html).toContain('&lt;b&gt;bold&lt;/b&gt;');
    });
  });

  it('a session of one workspace reads no project, job or label of another, both ways', async () => {
    const a = await workspaceWithProject(t, 'Alpha');
    const b = await workspaceWithProject(t, 'Bravo');
    await setStatusLabels(t, a.root, { planned: 'Alpha planned' });
    await setStatusLabels(t, b.root, { planned: 'Bravo planned' });
    for (const [self, other, otherName] of [
      [a, b, 'Bravo'],
      [b, a, 'Alpha'],
    ] as const) {
      for (const path of [
        `/dashboard/projects/${other.projectId}`,
        `/dashboard/projects/${other.projectId}/jobs/${other.jobId}`,
        `/dashboard/projects/${self.projectId}/jobs/${other.jobId}`,
      ]) {
        const res = await dashboard(t, 'GET', path, { cookie: self.root });
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
        expect(res.html).not.toContain(otherName);
      }
      for (const path of [
        '/dashboard/projects',
        '/dashboard/settings/statuses',
        `/dashboard/projects/${self.projectId}`,
      ]) {
        const res = await dashboard(t, 'GET', path, { cookie: self.root });
        expect(res.status).toBe(200);
        expect(res.html).not.toContain(otherName);
      }
      // A label posted by a session lands on its own workspace only.
      await setStatusLabels(t, self.root, { draft: `${self === a ? 'Alpha' : 'Bravo'} draft` });
      const otherLabels = await dashboard(t, 'GET', '/dashboard/settings/statuses', { cookie: other.root });
      expect(otherLabels.html).not.toContain(`${self === a ? 'Alpha' : 'Bravo'} draft`);
      expect(otherLabels.html).toContain(`value="${otherName} planned"`);
    }
  });
});
