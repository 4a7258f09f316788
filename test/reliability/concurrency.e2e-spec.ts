import { expectEachPatchRecordedOnce } from '../support/job-history';
import { plusDays, today } from '../support/dates';
import { reliabilityProfile, UNLIMITED_RATE } from '../support/reliability-profile';
import { HttpResult, TestApp } from '../support/test-app';

/**
 * Concurrency (docs/reliability.md): what the per-endpoint tests in test/e2e do not
 * cover — many kinds of request at once against one workspace, across endpoints, with the
 * invariants that must hold whatever the interleaving: no 5xx, the plan's project limit never
 * exceeded and every slot accounted for, no lost field update, assignments equal to the net
 * effect of the acknowledged assigns and unassigns, exactly one winner per deletion, nothing
 * recorded on a stream after its deletion, read models equal to a replay.
 */

const profile = reliabilityProfile();
type Keys = Awaited<ReturnType<TestApp['provision']>>;

describe(`Concurrency across endpoints (${profile.name} profile)`, () => {
  let t: TestApp;
  /** Every answer of the suite, for the "never a 5xx" rule. */
  const answered: { what: string; status: number; text: string }[] = [];

  beforeAll(async () => {
    // Deliveries (if any subscription matched) go to a closed loopback port: nothing leaves the machine.
    t = await TestApp.start({ ...UNLIMITED_RATE, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  });
  afterAll(async () => {
    await t.stop();
  });
  afterEach(() => {
    const failures = answered.filter((a) => a.status >= 500);
    expect(failures).toEqual([]);
  });

  const call = async (method: string, path: string, token: string, body?: unknown): Promise<HttpResult> => {
    const res = await t.request(method, path, { token, body });
    answered.push({ what: `${method} ${path}`, status: res.status, text: res.text.slice(0, 300) });
    return res;
  };
  const projectBody = (name: string) => ({
    name,
    description: 'Concurrency',
    status: 'planned',
    start_date: '2030-01-01',
  });
  const jobBody = (name: string, extra: object = {}) => ({
    name,
    type: 'wind_turbine',
    job_pattern: 'one_time',
    start_date: plusDays(today(), 20),
    ...extra,
  });
  const shuffle = <T>(items: T[]): T[] => {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  const allProjects = async (ws: Keys) => {
    const items: { id: string }[] = [];
    for (const archived of ['false', 'true']) {
      let cursor: string | null = null;
      do {
        const res: HttpResult = await call(
          'GET',
          `/v1/projects?archived=${archived}${cursor ? `&cursor=${cursor}` : ''}`,
          ws.readKey,
        );
        expect(res.status).toBe(200);
        items.push(...res.body.projects);
        cursor = res.body.cursor;
      } while (cursor);
    }
    return items;
  };
  const feed = async (ws: Keys, type?: string) => {
    const events: { type: string; stream: string; position: number; change: any }[] = [];
    let cursor: string | null = null;
    do {
      const query = [type ? `type=${type}` : '', cursor ? `cursor=${cursor}` : ''].filter(Boolean).join('&');
      const res: HttpResult = await call('GET', `/v1/events${query ? `?${query}` : ''}`, ws.readKey);
      expect(res.status).toBe(200);
      events.push(...res.body.events);
      cursor = res.body.cursor;
    } while (cursor);
    return events;
  };
  const verifyReadModels = async () => {
    const res = await t.admin('POST', '/events/verify');
    expect(res.status).toBe(200);
    expect(res.body.differences).toEqual([]);
  };

  it('keeps the project limit and its slot accounting through a storm of mixed operations across endpoints', async () => {
    const LIMIT = 20;
    const ws = await t.provision({ name: 'Storm', projectLimit: LIMIT });
    const pilot = (
      await t.admin('POST', `/workspaces/${ws.workspaceId}/members`, { email: 'storm@example.com', role: 'pilot' })
    ).body.id as string;
    const hook = await call('POST', '/v1/webhooks', ws.fullKey, {
      name: 'Storm feed',
      url: 'https://127.0.0.1:9/hook',
      event_types: ['project.created'],
    });
    expect(hook.status).toBe(201);

    let live = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const res = await call('POST', '/v1/projects', ws.fullKey, projectBody(`Seed ${i}`));
      expect(res.status).toBe(201);
      live.add(res.body.id);
    }

    for (let round = 0; round < profile.concurrency.stormRounds; round++) {
      const before = [...live];
      const toDelete = new Set(shuffle(before).slice(0, 6));
      const survivors = before.filter((id) => !toDelete.has(id));
      const jobsOf = new Map<string, string>();
      for (const id of survivors.slice(0, 3)) {
        const job = await call(
          'POST',
          `/v1/projects/${id}/jobs`,
          ws.fullKey,
          jobBody('Storm job', {
            job_pattern: 'recurring',
            recurring_frequency: 'daily',
            end_date: plusDays(today(), 29),
          }),
        );
        expect(job.status).toBe(201);
        jobsOf.set(id, job.body.id);
      }
      type Op = { kind: string; run: () => Promise<HttpResult> };
      const ops: Op[] = [
        ...Array.from({ length: 25 }, (_, i) => ({
          kind: 'create',
          run: () => call('POST', '/v1/projects', ws.fullKey, projectBody(`Storm ${round}.${i}`)),
        })),
        ...[...toDelete].map((id) => ({ kind: 'delete', run: () => call('DELETE', `/v1/projects/${id}`, ws.fullKey) })),
        ...survivors.flatMap((id, i) => [
          {
            kind: 'patch',
            run: () => call('PATCH', `/v1/projects/${id}`, ws.fullKey, { name: `Renamed ${round}.${i}` }),
          },
          {
            kind: 'patch',
            run: () => call('PATCH', `/v1/projects/${id}`, ws.fullKey, { laanc_number: `L-${round}-${i}` }),
          },
          {
            kind: 'archive',
            run: () => call('POST', `/v1/projects/${id}/archive`, ws.fullKey, { archived: i % 2 === 0 }),
          },
          {
            kind: 'create-job',
            run: () => call('POST', `/v1/projects/${id}/jobs`, ws.fullKey, jobBody(`Job ${round}.${i}`)),
          },
        ]),
        ...[...jobsOf].flatMap(([projectId, jobId]) => [
          {
            kind: 'assign',
            run: () => call('POST', `/v1/projects/${projectId}/jobs/${jobId}/assign`, ws.fullKey, { pilots: [pilot] }),
          },
          {
            kind: 'unassign',
            run: () =>
              call('POST', `/v1/projects/${projectId}/jobs/${jobId}/unassign`, ws.fullKey, { pilots: [pilot] }),
          },
          {
            kind: 'patch-job',
            run: () =>
              call('PATCH', `/v1/projects/${projectId}/jobs/${jobId}`, ws.fullKey, { recurring_interval: 2 + round }),
          },
        ]),
        ...Array.from({ length: 4 }, (_, i) => ({
          kind: 'job-type',
          run: () => call('POST', '/v1/job-types', ws.fullKey, { name: `Type ${round}.${i}` }),
        })),
        {
          kind: 'webhook',
          run: () => call('PATCH', `/v1/webhooks/${hook.body.id}`, ws.fullKey, { name: `Storm feed ${round}` }),
        },
        ...Array.from({ length: 6 }, () => ({
          kind: 'read',
          run: () => call('GET', '/v1/team?role=pilot', ws.readKey),
        })),
        ...Array.from({ length: 4 }, () => ({ kind: 'read', run: () => call('GET', '/v1/events', ws.readKey) })),
      ];
      const results = await Promise.all(shuffle(ops).map(async (op) => ({ kind: op.kind, res: await op.run() })));

      // Each kind answers only as documented.
      const allowed: Record<string, number[]> = {
        create: [201, 429], delete: [204], patch: [200], archive: [200], 'create-job': [201],
        assign: [200], unassign: [200, 404], 'patch-job': [200], 'job-type': [201], webhook: [200], read: [200],
      }; // prettier-ignore
      const off = results
        .filter(({ kind, res }) => !allowed[kind].includes(res.status))
        .map(({ kind, res }) => `${kind}: ${res.status} ${res.text}`);
      expect(off).toEqual([]);
      for (const { res } of results.filter((r) => r.res.status === 429)) {
        expect(res.body).toEqual({ message: 'Project limit reached for the workspace plan' });
      }
      // The limit held at every point of the history, not only at the end: replaying the store's
      // order, neither the slots held nor the live projects ever exceed it.
      let slots = 0;
      let projects = 0;
      let maxSlots = 0;
      let maxProjects = 0;
      for (const e of await feed(ws)) {
        if (e.type === 'workspace.project_slot_reserved') slots += 1;
        if (e.type === 'workspace.project_slot_released') slots -= 1;
        if (e.type === 'project.created') projects += 1;
        if (e.type === 'project.deleted') projects -= 1;
        maxSlots = Math.max(maxSlots, slots);
        maxProjects = Math.max(maxProjects, projects);
      }
      expect({ maxSlots: maxSlots <= LIMIT, maxProjects: maxProjects <= LIMIT }).toEqual({
        maxSlots: true,
        maxProjects: true,
      });
      // Every live project holds exactly one slot: none leaked, none shared.
      expect(slots).toBe(projects);

      // Exact accounting: what was there, minus acknowledged deletions, plus acknowledged creates.
      const created = results
        .filter((r) => r.kind === 'create' && r.res.status === 201)
        .map((r) => r.res.body.id as string);
      const expected = new Set([...survivors, ...created]);
      const listed = (await allProjects(ws)).map((p) => p.id);
      expect(listed.sort()).toEqual([...expected].sort());
      expect(listed.length).toBeLessThanOrEqual(LIMIT);
      // The limit was reached, so creates were really racing for the last slots.
      expect(results.some((r) => r.kind === 'create' && r.res.status === 429)).toBe(true);
      live = expected;
    }

    // No slot leaked: with everything deleted, exactly LIMIT creates succeed again.
    await Promise.all([...live].map((id) => call('DELETE', `/v1/projects/${id}`, ws.fullKey)));
    const refill = await Promise.all(
      Array.from({ length: LIMIT + 5 }, (_, i) => call('POST', '/v1/projects', ws.fullKey, projectBody(`Refill ${i}`))),
    );
    expect(refill.filter((r) => r.status === 201)).toHaveLength(LIMIT);
    expect(refill.filter((r) => r.status === 429)).toHaveLength(5);
    await verifyReadModels();
  });

  it('applies 50 concurrent PATCHes of different fields of one job while its occurrences are regenerated and pilots come and go', async () => {
    const ws = await t.provision({ name: 'One job' });
    const pilots: string[] = [];
    for (const name of ['ana', 'ben', 'cleo', 'dev']) {
      pilots.push(
        (
          await t.admin('POST', `/workspaces/${ws.workspaceId}/members`, {
            email: `${name}@example.com`,
            role: 'pilot',
          })
        ).body.id,
      );
    }
    const projectId = (await call('POST', '/v1/projects', ws.fullKey, projectBody('One job'))).body.id as string;
    const start = plusDays(today(), 10);
    const created = await call('POST', `/v1/projects/${projectId}/jobs`, ws.fullKey, jobBody('Busy job', {
      start_date: start, end_date: plusDays(start, 20), job_pattern: 'recurring', recurring_frequency: 'daily', latitude: 1, longitude: 2,
    })); // prettier-ignore
    expect(created.status).toBe(201);
    const jobPath = `/v1/projects/${projectId}/jobs/${created.body.id}`;

    // 50 changes over the job's fields; the schedule ones (interval, end, flights) regenerate occurrences.
    const patches: Record<string, unknown>[] = [
      ...[1, 2, 3, 4, 5, 6].map((i) => ({ name: `Name ${i}` })),
      ...[1, 2, 3, 4, 5].map((i) => ({ description: `Description ${i}` })),
      ...[1, 2, 3, 4, 5].map((i) => ({ inspection_notes: `Notes ${i}` })),
      ...[1, 2, 3, 4].map((i) => ({ external_id: `EXT-${i}` })),
      ...['planned', 'in_progress', 'on_hold'].map((status) => ({ status })),
      ...['low', 'high'].map((priority) => ({ priority })),
      ...['thermal_inspection', 'cell_tower'].map((type) => ({ type })),
      ...[['panorama'], ['lidar_scan', 'orthomosaic']].map((capture_types) => ({ capture_types })),
      ...[1, 2, 3, 4, 5].map((recurring_interval) => ({ recurring_interval })),
      ...[1, 2, 3].map((flights_per_occurrence) => ({ flights_per_occurrence })),
      // None equal to a value the field already has: a PATCH that changes nothing records nothing.
      ...[12, 15, 22, 25].map((days) => ({ end_date: plusDays(start, days) })),
      ...[10.5, 11.5].map((latitude) => ({ latitude })),
      ...[20.25, 21.25].map((longitude) => ({ longitude })),
      ...[[1, 2], [3]].map((weeks_of_month) => ({ weeks_of_month })),
      { selected_days_of_week: [1, 3, 5] },
      { week_of_month: 2 },
      { start_date: plusDays(start, 1) },
    ];
    expect(patches).toHaveLength(50);
    const assignments = Array.from({ length: 24 }, (_, i) => {
      const subset = pilots.filter((_p, j) => (i + j) % 3 !== 0);
      return i % 2 === 0
        ? call('POST', `${jobPath}/assign`, ws.fullKey, { pilots: subset }).then((res) => ({
            kind: 'assign' as const,
            res,
          }))
        : call('POST', `${jobPath}/unassign`, ws.fullKey, { pilots: subset }).then((res) => ({
            kind: 'unassign' as const,
            res,
          }));
    });
    const others = [
      ...[1, 2, 3].map((i) => call('PATCH', `/v1/projects/${projectId}`, ws.fullKey, { name: `Project ${i}` })),
      ...Array.from({ length: 10 }, () => call('GET', jobPath, ws.readKey)),
      ...Array.from({ length: 5 }, () => call('GET', `${jobPath}/occurrences`, ws.readKey)),
    ];
    const [patched, assigned] = await Promise.all([
      Promise.all(
        shuffle(patches).map((body) => call('PATCH', jobPath, ws.fullKey, body).then((res) => ({ body, res }))),
      ),
      Promise.all(assignments),
      Promise.all(others),
    ]);
    expect(patched.map((p) => p.res.status)).toEqual(Array(50).fill(200));

    // Every PATCH is recorded once with exactly its change, and the job shows the last of each.
    const history = (cursor: string | null) =>
      call('GET', `${jobPath}/history${cursor ? `?cursor=${cursor}` : ''}`, ws.readKey);
    const last = await expectEachPatchRecordedOnce(history, patches);
    const job = (await call('GET', jobPath, ws.readKey)).body;
    expect(job).toMatchObject(last);

    // The occurrences are those of the final schedule, not of one some concurrent PATCH saw on its
    // way: the same schedule on a job created quietly (the service's own generator) gives them.
    const occurrencesOf = async (path: string) => {
      const items: { date: string; flights: number; assigned_pilot_ids: string[] }[] = [];
      let next: string | null = null;
      do {
        const page: HttpResult = await call('GET', `${path}/occurrences${next ? `?cursor=${next}` : ''}`, ws.readKey);
        expect(page.status).toBe(200);
        items.push(...page.body.occurrences);
        next = page.body.cursor;
      } while (next);
      return items;
    };
    const schedule = [
      'job_pattern',
      'start_date',
      'end_date',
      'recurring_frequency',
      'recurring_interval',
      'selected_days_of_week',
      'week_of_month',
      'weeks_of_month',
      'flights_per_occurrence',
    ];
    const twin = await call(
      'POST',
      `/v1/projects/${projectId}/jobs`,
      ws.fullKey,
      jobBody('Quiet twin', Object.fromEntries(schedule.map((f) => [f, job[f]]))),
    );
    expect(twin.status).toBe(201);
    const occurrences = await occurrencesOf(jobPath);
    const expectedOccurrences = await occurrencesOf(`/v1/projects/${projectId}/jobs/${twin.body.id}`);
    // The final schedule depends on the order the shuffled PATCHes landed in, and some orders leave
    // no date inside the window (e.g. every 5th month, a 12-day window): equality with the quiet
    // twin is the check; an empty list is a legitimate answer when the twin has none either.
    expect(occurrences.length).toBe(expectedOccurrences.length);
    expect(occurrences.map(({ date, flights }) => ({ date, flights }))).toEqual(
      expectedOccurrences.map(({ date, flights }) => ({ date, flights })),
    );

    // Assigned pilots are the net effect of the acknowledged assigns and unassigns.
    for (const { kind, res } of assigned) {
      expect(kind === 'assign' ? [200] : [200, 404]).toContain(res.status);
    }
    // Assignments belong to the job and carry over when occurrences regenerate; when the final
    // schedule has no date in its window, a one-time schedule (exactly one occurrence) shows them.
    let shown = occurrences;
    if (shown.length === 0) {
      expect((await call('PATCH', jobPath, ws.fullKey, { job_pattern: 'one_time' })).status).toBe(200);
      shown = await occurrencesOf(jobPath);
      expect(shown).toHaveLength(1);
    }
    const final = shown[0].assigned_pilot_ids;
    for (const pilot of pilots) {
      const added = assigned.filter((a) => a.kind === 'assign' && a.res.body.pilots_assigned.includes(pilot)).length;
      const removed = assigned.filter(
        (a) => a.kind === 'unassign' && a.res.status === 200 && a.res.body.pilots_removed.includes(pilot),
      ).length;
      expect({ pilot, net: added - removed }).toEqual({ pilot, net: final.includes(pilot) ? 1 : 0 });
    }
    await verifyReadModels();
  });

  it('lets exactly one of many concurrent deletions of a resource win, and records nothing on it afterwards', async () => {
    const ws = await t.provision({ name: 'Deleters' });
    const projectId = (await call('POST', '/v1/projects', ws.fullKey, projectBody('Doomed'))).body.id as string;
    const keeper = (await call('POST', '/v1/projects', ws.fullKey, projectBody('Keeper'))).body.id as string;
    const jobId = (await call('POST', `/v1/projects/${keeper}/jobs`, ws.fullKey, jobBody('Doomed job'))).body
      .id as string;
    const typeId = (await call('POST', '/v1/job-types', ws.fullKey, { name: 'Doomed type' })).body.id as string;
    const hookId = (
      await call('POST', '/v1/webhooks', ws.fullKey, {
        name: 'Doomed hook',
        url: 'https://127.0.0.1:9/x',
        event_types: ['job.created'],
      })
    ).body.id as string;

    const targets = [
      {
        path: `/v1/projects/${projectId}`,
        stream: `project-${projectId}`,
        patch: (i: number) => ({ name: `Racing ${i}` }),
        notFound: 'Project not found',
      },
      {
        path: `/v1/projects/${keeper}/jobs/${jobId}`,
        stream: `job-${jobId}`,
        patch: (i: number) => ({ name: `Racing ${i}` }),
        notFound: 'Job not found',
      },
      {
        path: `/v1/webhooks/${hookId}`,
        stream: `webhook-${hookId}`,
        patch: (i: number) => ({ name: `Racing ${i}` }),
        notFound: 'Webhook not found',
      },
      { path: `/v1/job-types/${typeId}`, stream: `job-type-${typeId}`, patch: null, notFound: 'Job Type not found' },
    ];
    for (const target of targets) {
      const requests = shuffle([
        ...Array.from({ length: 10 }, () =>
          call('DELETE', target.path, ws.fullKey).then((res) => ({ kind: 'delete', res })),
        ),
        ...(target.patch
          ? Array.from({ length: 10 }, (_, i) =>
              call('PATCH', target.path, ws.fullKey, target.patch!(i)).then((res) => ({ kind: 'patch', res })),
            )
          : []),
      ]);
      const results = await Promise.all(requests);
      const deletes = results.filter((r) => r.kind === 'delete');
      expect(deletes.filter((r) => r.res.status === 204)).toHaveLength(1);
      for (const r of deletes.filter((d) => d.res.status !== 204))
        expect({ status: r.res.status, body: r.res.body }).toEqual({ status: 404, body: { message: target.notFound } });
      for (const r of results.filter((p) => p.kind === 'patch')) expect([200, 404]).toContain(r.res.status);
      // The deletion is the last event of the stream: no change was accepted after it.
      const events = (await feed(ws)).filter((e) => e.stream === target.stream);
      expect(events.length).toBeGreaterThan(0);
      expect(events[events.length - 1].type).toMatch(/\.deleted$/);
      expect(events.filter((e) => e.type.endsWith('.deleted'))).toHaveLength(1);
    }
    await verifyReadModels();
  });

  it('gives two workspaces creating at once exactly their own limits, and never each other’s projects', async () => {
    const a = await t.provision({ name: 'Limit A', projectLimit: 5 });
    const b = await t.provision({ name: 'Limit B', projectLimit: 7 });
    const results = await Promise.all(
      shuffle([
        ...Array.from({ length: 30 }, (_, i) =>
          call('POST', '/v1/projects', a.fullKey, projectBody(`A${i}`)).then((res) => ({ ws: 'a', res })),
        ),
        ...Array.from({ length: 30 }, (_, i) =>
          call('POST', '/v1/projects', b.fullKey, projectBody(`B${i}`)).then((res) => ({ ws: 'b', res })),
        ),
      ]),
    );
    const createdBy = (ws: string) =>
      results
        .filter((r) => r.ws === ws && r.res.status === 201)
        .map((r) => r.res.body.id as string)
        .sort();
    expect(createdBy('a')).toHaveLength(5);
    expect(createdBy('b')).toHaveLength(7);
    expect(results.filter((r) => r.res.status !== 201).every((r) => r.res.status === 429)).toBe(true);
    expect((await allProjects(a)).map((p) => p.id).sort()).toEqual(createdBy('a'));
    expect((await allProjects(b)).map((p) => p.id).sort()).toEqual(createdBy('b'));
  });

  it('refuses every job with a custom type once that type’s deletion has been acknowledged', async () => {
    // Creates overlapping the deletion may go either way (both outcomes have a serial order:
    // deleting a type that jobs use is allowed). A create sent after the 204 must be refused.
    const ws = await t.provision({ name: 'Type race' });
    const projectId = (await call('POST', '/v1/projects', ws.fullKey, projectBody('Types'))).body.id as string;
    let refusedAfter = 0;
    for (let round = 0; round < 5; round++) {
      const typeId = (await call('POST', '/v1/job-types', ws.fullKey, { name: `Racy ${round}` })).body.id as string;
      let deletedAt = Infinity;
      const creates: Promise<{ sentAt: number; res: HttpResult }>[] = [];
      const deletion = (async () => {
        await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 20)));
        const res = await call('DELETE', `/v1/job-types/${typeId}`, ws.fullKey);
        deletedAt = Date.now();
        return res;
      })();
      const started = Date.now();
      while (Date.now() - started < 150 || creates.length < 30) {
        const sentAt = Date.now();
        creates.push(
          call('POST', `/v1/projects/${projectId}/jobs`, ws.fullKey, jobBody(`Typed ${round}`, { type: typeId })).then(
            (res) => ({ sentAt, res }),
          ),
        );
        await new Promise((r) => setTimeout(r, 2));
      }
      expect((await deletion).status).toBe(204);
      for (const { sentAt, res } of await Promise.all(creates)) {
        if (sentAt > deletedAt) {
          refusedAfter += 1;
          expect({ status: res.status, body: res.body }).toEqual({
            status: 400,
            body: { message: expect.stringMatching(/type/) },
          });
        } else {
          expect([201, 400]).toContain(res.status);
        }
      }
    }
    // The race was real: creates were sent after some deletion had been acknowledged.
    expect(refusedAfter).toBeGreaterThan(0);
  });
});
