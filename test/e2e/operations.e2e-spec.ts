import Database from '@app/infrastructure/sqlite/sqlite-driver';
import { join } from 'node:path';
import { useProvisionedApp } from '../support/test-app';

describe('Operator tools: projections and event verification over HTTP', () => {
  const { t, keys } = useProvisionedApp();
  const ids: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 300; i++) {
      const res = await t.request('POST', '/v1/projects', {
        token: keys.fullKey,
        body: { name: `P${i}`, description: 'd', status: 'draft', start_date: '2026-01-01' },
      });
      ids.push(res.body.id);
    }
    for (const id of ids.slice(0, 50)) {
      await t.request('PATCH', `/v1/projects/${id}`, { token: keys.fullKey, body: { status: 'planned' } });
    }
  });

  const waitRebuilt = async (name: string) => {
    for (let i = 0; i < 200; i++) {
      const status = await t.admin('GET', '/projections');
      const entry = status.body.projections.find((p: { name: string }) => p.name === name);
      if (entry.rebuild?.state === 'done') return entry;
      if (entry.rebuild?.state === 'failed') throw new Error(entry.rebuild.error);
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('rebuild did not finish');
  };

  it('reports each projection’s checkpoint and lag', async () => {
    const res = await t.admin('GET', '/projections');
    expect(res.status).toBe(200);
    const names = res.body.projections.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['workspaces', 'projects', 'audit']));
    for (const p of res.body.projections) {
      expect(p.lag).toBe(0);
      expect(p.checkpoint).toBe(p.head);
    }
  });

  it('verifies the read models against a replay: no drift, then every altered document', async () => {
    const clean = await t.admin('POST', '/events/verify');
    expect(clean.status).toBe(200);
    expect(clean.body.differences).toEqual([]);
    expect(clean.body.documents).toBeGreaterThan(300);

    // Tamper with the read models behind the service's back.
    const db = new Database(join(t.dataDir, 'read-models.db'));
    const row = db.prepare('SELECT doc FROM rm_projects WHERE id = ?').get(ids[7]) as { doc: string };
    db.prepare('UPDATE rm_projects SET doc = ? WHERE id = ?').run(
      JSON.stringify({ ...JSON.parse(row.doc), name: 'Tampered' }),
      ids[7],
    );
    db.prepare('DELETE FROM rm_projects WHERE id = ?').run(ids[8]);
    db.prepare("INSERT INTO rm_projects (id, workspace_id, seq, version, doc) VALUES ('prj_ghost', ?, 1, 0, '{}')").run(
      keys.workspaceId,
    );
    db.close();

    const drift = await t.admin('POST', '/events/verify');
    const byId = Object.fromEntries(drift.body.differences.map((d: { id: string; kind: string }) => [d.id, d]));
    expect(drift.body.differences).toHaveLength(3);
    expect(byId[ids[7]]).toMatchObject({ kind: 'different', collection: 'projects', projection: 'projects' });
    expect(byId[ids[7]].expected.doc.name).toBe('P7');
    expect(byId[ids[7]].actual.doc.name).toBe('Tampered');
    expect(byId[ids[8]]).toMatchObject({ kind: 'missing' });
    expect(byId.prj_ghost).toMatchObject({ kind: 'unexpected' });
  });

  it('rebuilds a projection blue/green while GETs keep being served, and repairs drift', async () => {
    const failures: string[] = [];
    let served = 0;
    let loading = true;
    // Projects the previous test left alone: until the swap, ids[8] is missing from the read model
    // (a 404 there is the tampering showing, not the rebuild failing a reader).
    const load = (async () => {
      while (loading) {
        const id = ids[20 + (served % 20)];
        const res = await t.request('GET', `/v1/projects/${id}`, { token: keys.readKey });
        if (res.status !== 200) failures.push(`${id}: ${res.status}`);
        served += 1;
      }
    })();
    const writer = (async () => {
      for (let i = 0; i < 20; i++) {
        await t.request('PATCH', `/v1/projects/${ids[100 + i]}`, {
          token: keys.fullKey,
          body: { name: `During ${i}` },
        });
      }
    })();
    const started = await t.admin('POST', '/projections/rebuild', { name: 'projects' });
    expect(started.status).toBe(202);
    const done = await waitRebuilt('projects');
    await writer;
    loading = false;
    await load;
    expect(failures).toEqual([]);
    expect(served).toBeGreaterThan(0);
    expect(done.rebuild.processed).toBeGreaterThan(300);
    // Caught up once the writes are answered (each waited for its read model); at the moment the
    // rebuild reported done, a write of the writer may still have been on its way.
    const status = await t.admin('GET', '/projections');
    expect(status.body.projections.find((p: { name: string }) => p.name === 'projects').lag).toBe(0);

    const after = await t.admin('POST', '/events/verify');
    expect(after.body.differences).toEqual([]);
    expect((await t.request('GET', `/v1/projects/${ids[7]}`, { token: keys.readKey })).body.name).toBe('P7');
    expect((await t.request('GET', `/v1/projects/${ids[8]}`, { token: keys.readKey })).status).toBe(200);
    expect((await t.request('GET', `/v1/projects/${ids[119]}`, { token: keys.readKey })).body.name).toBe('During 19');
    // Writes after the swap still reach the rebuilt collection.
    await t.request('PATCH', `/v1/projects/${ids[9]}`, { token: keys.fullKey, body: { name: 'After swap' } });
    expect((await t.request('GET', `/v1/projects/${ids[9]}`, { token: keys.readKey })).body.name).toBe('After swap');
    const list = await t.request('GET', '/v1/projects?status=planned', { token: keys.readKey });
    expect(list.body.count).toBe(50);
  });

  it('rebuilds every projection in turn; unknown names are 404', async () => {
    const all = await t.admin('POST', '/projections/rebuild', {});
    expect(all.status).toBe(202);
    for (const name of all.body.projections) await waitRebuilt(name);
    expect((await t.admin('POST', '/events/verify')).body.differences).toEqual([]);
    expect(await t.admin('POST', '/projections/rebuild', { name: 'nope' })).toMatchObject({ status: 404 });
  });

  it('exports a stream’s and a workspace’s events as NDJSON without secrets', async () => {
    const stream = await t.request('GET', `/v1/admin/events/export?stream=project-${ids[0]}`, {
      headers: { authorization: `Bearer ${'adm_test_token_for_e2e'}` },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = stream.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['project.created', 'project.updated']);
    expect(lines[0]).toMatchObject({ stream: `project-${ids[0]}`, revision: 0, schema_version: 1 });
    const workspace = await t.admin('GET', `/events/export?workspace_id=${keys.workspaceId}`);
    const all = workspace.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(all.length).toBeGreaterThan(350);
    expect(workspace.text).not.toMatch(/key_hash/);
    expect((await t.admin('GET', '/events/export')).status).toBe(400);
  });
});
