import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, TestApp } from '../support/test-app';

/**
 * The scaled deployment's split, on the embedded stores: one process projects (PROJECTIONS=inline,
 * the projector worker), API replicas do not (PROJECTIONS=external) and wait on the stored
 * checkpoints, so a GET on any replica right after a write on any other still sees it.
 */
describe('API replicas with an external projector (PROJECTIONS=external)', () => {
  let dir: string;
  let projector: TestApp;
  let replicaA: TestApp;
  let replicaB: TestApp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-scaled-'));
    projector = await TestApp.start({ PROJECTIONS: 'inline' }, dir);
    replicaA = await TestApp.start({ PROJECTIONS: 'external' }, dir);
    replicaB = await TestApp.start({ PROJECTIONS: 'external' }, dir);
  });
  afterAll(async () => {
    await replicaB?.stop();
    await replicaA?.stop();
    await projector?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps read-your-writes across replicas while only the projector writes the read models', async () => {
    const ws = await replicaA.request('POST', '/v1/admin/workspaces', {
      token: ADMIN_TOKEN,
      body: { name: 'Scaled', plan: 'enterprise' },
    });
    expect(ws.status).toBe(201);
    const key = await replicaB.request('POST', `/v1/admin/workspaces/${ws.body.id}/api-keys`, {
      token: ADMIN_TOKEN,
      body: { name: 'k', scope: 'full_access' },
    });
    expect(key.status).toBe(201);
    for (let i = 0; i < 20; i++) {
      const [writer, reader] = i % 2 ? [replicaA, replicaB] : [replicaB, replicaA];
      const created = await writer.request('POST', '/v1/projects', {
        token: key.body.key,
        body: { name: `P${i}`, description: 'd', status: 'draft', start_date: '2026-01-01' },
      });
      expect(created.status).toBe(201);
      const read = await reader.request('GET', `/v1/projects/${created.body.id}`, { token: key.body.key });
      expect(read.status).toBe(200);
      expect(read.body.name).toBe(`P${i}`);
    }
    const listed = await projector.request('GET', '/v1/projects', { token: key.body.key });
    expect(listed.body.count).toBe(20);
  });
});
