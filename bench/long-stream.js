// A long workspace stream: the first command after a restart, and other tenants meanwhile.
// Seeds (through the real SQLite adapter, as the API would have written it) a workspace whose own
// stream holds BENCH_STREAM_EVENTS events (default 1,000,000): projects created and deleted, each
// with its `workspace.project_slot_reserved` / `_released` on the workspace's stream, written
// together with the project's own event as the API does. A second workspace has a few projects.
// Then: start the service, make one create in the long workspace (a cold load with no snapshot:
// chunked, and it stores the snapshot), stop it, start it again (a deploy) and measure the first
// create in the long workspace while another tenant's GETs run, one after the other, meanwhile.
const { randomUUID } = require('node:crypto');
const { mkdtempSync } = require('node:fs');
const { join } = require('node:path');
const { envelope, projectCreated, seedWorkspace } = require('./seed-events');

const STREAM_EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 1_000_000);
const LIVE = 1000;

async function seedLongStream(dataDir, log) {
  const { SqliteEventStore } = require('../dist/libs/infrastructure/src/sqlite');
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  const now = Date.now();
  const tenants = {};
  for (const name of ['long', 'other']) {
    tenants[name] = await seedWorkspace(store, name, now);
  }
  const other = tenants.other;
  const otherId = 'prj_other_0';
  await store.appendToStreams([
    {
      streamId: `project-${otherId}`,
      events: [projectCreated(otherId, other.workspaceId, `Project ${otherId}`, now)],
      expectedRevision: 'no_stream',
    },
  ]);
  other.projectId = otherId;

  // The long workspace: (STREAM_EVENTS - LIVE) / 2 projects created and deleted, LIVE kept.
  const { workspaceId } = tenants.long;
  const ws = `workspace-${workspaceId}`;
  let wsRevision = 1;
  const churned = Math.floor((STREAM_EVENTS - 2 - LIVE) / 2);
  const BATCH = 500;
  for (let start = 0; start < churned + LIVE; start += BATCH) {
    const wsEvents = [];
    const appends = [];
    for (let i = start; i < Math.min(churned + LIVE, start + BATCH); i++) {
      const id = `prj_long_${i}`;
      const events = [projectCreated(id, workspaceId, `Project ${id}`, now)];
      wsEvents.push(
        envelope('workspace.project_slot_reserved', { workspace_id: workspaceId, project_id: id }, workspaceId, now),
      );
      if (i < churned) {
        events.push(envelope('project.deleted', { id, workspace_id: workspaceId, deleted: now }, workspaceId, now));
        wsEvents.push(
          envelope('workspace.project_slot_released', { workspace_id: workspaceId, project_id: id }, workspaceId, now),
        );
      }
      appends.push({ streamId: `project-${id}`, events, expectedRevision: 'no_stream' });
    }
    appends.unshift({ streamId: ws, events: wsEvents, expectedRevision: wsRevision });
    await store.appendToStreams(appends);
    wsRevision += wsEvents.length;
    if (start % 50_000 === 0) log(`  seeded ${wsRevision + 1} events of the long workspace's stream`);
  }
  await store.close();
  return { tenants, streamEvents: wsRevision + 1 };
}

const body = () => ({
  name: `Bench ${randomUUID().slice(0, 8)}`,
  description: 'After restart',
  status: 'planned',
  start_date: '2026-12-01',
});

async function timed(fn) {
  const started = process.hrtime.bigint();
  const result = await fn();
  return { result, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

async function run({ startService, api, scratch, log }) {
  const dataDir = mkdtempSync(join(scratch, 'long-stream-'));
  log(`Long stream: seeding a workspace stream of ${STREAM_EVENTS.toLocaleString()} events...`);
  const { tenants, streamEvents } = await seedLongStream(dataDir, log);
  const { long, other } = tenants;

  let svc = await startService(dataDir);
  const first = await timed(() => api(svc.base, 'POST', '/v1/projects', { token: long.key, body: body() }));
  if (first.result.status !== 201) throw new Error(`create in the long workspace: ${first.result.status}`);
  log(`  first create with no snapshot (chunked fold of the whole stream): ${first.ms.toFixed(1)} ms`);
  await svc.stop();

  svc = await startService(dataDir);
  // Warm the other tenant (its key and project) so its reads measure only the wait, not a cold cache.
  await api(svc.base, 'GET', `/v1/projects/${other.projectId}`, { token: other.key });
  let measuring = true;
  const otherReads = [];
  const reader = (async () => {
    while (measuring) {
      const read = await timed(() => api(svc.base, 'GET', `/v1/projects/${other.projectId}`, { token: other.key }));
      if (read.result.status !== 200) throw new Error(`other tenant's read: ${read.result.status}`);
      otherReads.push(read.ms);
    }
  })();
  await new Promise((r) => setTimeout(r, 50));
  const afterRestart = await timed(() => api(svc.base, 'POST', '/v1/projects', { token: long.key, body: body() }));
  await new Promise((r) => setTimeout(r, 50));
  measuring = false;
  await reader;
  const second = await timed(() => api(svc.base, 'POST', '/v1/projects', { token: long.key, body: body() }));
  await svc.stop();
  if (afterRestart.result.status !== 201) throw new Error(`create after restart: ${afterRestart.result.status}`);

  const otherMax = Math.max(...otherReads);
  log(
    `  first create after restart: ${afterRestart.ms.toFixed(1)} ms (next: ${second.ms.toFixed(1)} ms); other tenant's reads meanwhile: ${otherReads.length}, max ${otherMax.toFixed(1)} ms`,
  );
  return {
    name: `first create after restart, workspace stream of ${streamEvents.toLocaleString()} events`,
    firstAfterRestartMs: Math.round(afterRestart.ms * 10) / 10,
    nextCreateMs: Math.round(second.ms * 10) / 10,
    firstWithoutSnapshotMs: Math.round(first.ms * 10) / 10,
    otherTenantReads: otherReads.length,
    otherTenantMaxMs: Math.round(otherMax * 10) / 10,
    target: 'first write <= 50 ms; no other tenant read > 50 ms',
    met: afterRestart.ms <= 50 && otherMax <= 50,
  };
}

module.exports = { run, seedLongStream };
