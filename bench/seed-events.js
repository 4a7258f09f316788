// Writes a large history straight into an embedded event store (DATA_DIR/events.db) through the
// real SQLite adapter, as if the API had recorded it: workspaces with their keys, and projects
// created and then updated. Used for the projection-rebuild, list-at-scale and memory scenarios.
const { join } = require('node:path');

const operator = { type: 'operator' };

/** Ids as the service makes them, from the built application (bench/run.js builds first). */
let ids;
const idGenerator = () => (ids ??= require('../dist/libs/application/src/shared/time-ordered-ids'));
const eventId = () => idGenerator().newEventId();

function envelope(type, data, workspaceId, recordedAt) {
  return {
    id: eventId(),
    type,
    schemaVersion: 1,
    data,
    metadata: { workspaceId, actor: operator, requestId: null, correlationId: 'seed', causationId: null, recordedAt },
  };
}

const createdBy = { id: 'operator', email: null, first_name: 'Operator', last_name: null, profile_picture: null };

/** A `project.created` as the API records it for a project made by the operator. */
function projectCreated(id, workspaceId, name, now) {
  return envelope(
    'project.created',
    {
      id,
      workspace_id: workspaceId,
      name,
      description: 'Seeded for the benchmark',
      status: 'planned',
      other_status_reason: null,
      start_date: '2026-01-01',
      end_date: null,
      external_id: null,
      created_by: createdBy,
      created: now,
    },
    workspaceId,
    now,
  );
}

/** An enterprise workspace `ws_<name>` (no project limit) with one full-access key: { workspaceId, key }. */
async function seedWorkspace(store, name, now) {
  // The built application (bench/run.js builds first).
  const { generateApiKey } = require('../dist/libs/application/src/workspaces/api-key-authenticator');
  const workspaceId = `ws_${name}`;
  const { key, hash } = generateApiKey();
  await store.appendToStream(
    `workspace-${workspaceId}`,
    [
      envelope(
        'workspace.created',
        { id: workspaceId, name, plan: 'enterprise', project_limit: null, created: now },
        workspaceId,
        now,
      ),
      envelope(
        'workspace.api_key_created',
        {
          workspace_id: workspaceId,
          key_id: `key_${name}`,
          name: 'bench',
          scope: 'full_access',
          key_hash: hash,
          created: now,
        },
        workspaceId,
        now,
      ),
    ],
    { expectedRevision: 'no_stream' },
  );
  return { workspaceId, key };
}

/**
 * plan: [{ name, projects, updatesPerProject }]. Returns, per workspace, its id, a full-access
 * key and the store positions of its projects' creation events (the list cursors).
 */
async function seed(dataDir, plan, onProgress = () => undefined) {
  // The built adapter (bench/run.js builds first).
  const { SqliteEventStore } = require('../dist/libs/infrastructure/src/sqlite');
  const store = new SqliteEventStore(join(dataDir, 'events.db'));
  const now = Date.now();
  const out = {};
  let written = 0;
  for (const ws of plan) {
    const { workspaceId, key } = await seedWorkspace(store, ws.name, now);
    const positions = [];
    const CONCURRENT = 2000;
    for (let start = 0; start < ws.projects; start += CONCURRENT) {
      const appends = [];
      for (let i = start; i < Math.min(ws.projects, start + CONCURRENT); i++) {
        const id = idGenerator().timeOrderedIds.next('prj');
        const events = [projectCreated(id, workspaceId, `Project ${i}`, now)];
        for (let u = 0; u < ws.updatesPerProject; u++) {
          events.push(
            envelope(
              'project.updated',
              { id, workspace_id: workspaceId, changes: { name: `Project ${i} v${u + 1}` }, updated: now },
              workspaceId,
              now,
            ),
          );
        }
        appends.push(
          store.appendToStream(`project-${id}`, events, { expectedRevision: 'no_stream' }).then((r) => {
            positions[i] = r.position - ws.updatesPerProject;
          }),
        );
        written += events.length;
      }
      await Promise.all(appends);
      onProgress(written);
    }
    out[ws.name] = { workspaceId, key, positions };
  }
  const head = await store.headPosition();
  await store.close();
  return { workspaces: out, head };
}

module.exports = { seed, seedWorkspace, projectCreated, envelope };
