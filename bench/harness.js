/**
 * What the benchmark scripts share (bench/run.js, bench/compare.js, bench/budget.js): free ports,
 * starting and stopping the service, the baselines and the peer, the load generator, the server's
 * CPU time, calls to the API, the fixtures of the HTTP scenarios, and medians.
 */
const { execFileSync, fork, spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const { readFileSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');

/** The service runs with `npm start`'s Node flags (the young generation's cap), as operators run it. */
const START_FLAGS = require('../scripts/start-flags').startFlags();

const CLK_TCK = 100;

/** A port the OS just handed out: the machine is shared, and a fixed range can collide with other servers. */
const freePort = () =>
  new Promise((resolvePort, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The middle value (the mean of the two middle ones for an even count). */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const log = (line) => process.stderr.write(`${line}\n`);

/** User plus system CPU time a process has used so far, in seconds. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** Resolves once `url` answers below 500; throws after `timeoutMs`, or as soon as `child` has exited. */
async function waitHttp(url, timeoutMs = 300_000, child = null) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the service exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      /* not yet */
    }
    await sleep(50);
  }
  throw new Error(`${url} did not answer`);
}

/** One API call as a client makes it: the status and the parsed JSON body. */
async function call(base, method, path, { token, body } = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Connections of every load: the targets are stated at 50. */
const CONNECTIONS = 50;

/** Ends a child process (SIGTERM) and resolves once it has exited; at once if it already has. */
function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** Waits for a server just started to answer `url`; one that does not is stopped, not left behind. */
async function readyOrStopped(child, url, timeoutMs) {
  try {
    await waitHttp(url, timeoutMs, child);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/**
 * The service on `dataDir`, started as operators start it (`npm start`'s Node flags, or
 * `startFlags`, then `flags`, before the entry point) on a free port, once it answers `/health`.
 * The rate limits are lifted: the benches measure throughput, not the limiter's refusals. `env`
 * adds to or overrides the environment.
 */
async function startService({ entry, dataDir, admin, env = {}, flags = [], startFlags = START_FLAGS }) {
  const port = await freePort();
  const child = spawn(process.execPath, [...startFlags, ...flags, entry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_TOKEN: admin,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      RATE_LIMIT_PER_SECOND: '1000000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await readyOrStopped(child, `${base}/health`, 300_000);
  return { child, base, stop: () => stopChild(child) };
}

/**
 * One of bench/baselines/ on a free port, once it answers: `{ child, url, stop }`. `env` adds to
 * the environment; `BENCH_WORK_US` (the work a request, bench:budget) is 0 unless it says otherwise,
 * whatever the caller's environment says.
 */
async function startBaseline(script, env = {}) {
  const port = await freePort();
  const child = fork(join(__dirname, 'baselines', script), [], {
    env: { ...process.env, BENCH_WORK_US: '0', ...env, PORT: String(port) },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}/`;
  await readyOrStopped(child, url, 30_000);
  return { child, url, stop: () => stopChild(child) };
}

/** The request the fsync-per-request baseline (and bench:budget's group-commit reference) is loaded with. */
const ROW_INSERT = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'row' }),
};

/**
 * autocannon in its own process (bench/load.js), so that it never shares the event loop of the
 * bench or of the server: the options go on stdin (500 rotating request templates are more than
 * one argument may hold), its summary comes back. `loadSync` blocks the bench meanwhile (nothing
 * of its own then runs beside the server); `load` does not (two services loaded at once).
 */
function loadSync(options) {
  const out = execFileSync(process.execPath, [LOAD_SCRIPT], {
    input: JSON.stringify({ connections: CONNECTIONS, ...options }),
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.toString());
}

function load(options) {
  return new Promise((resolveLoad, reject) => {
    const child = spawn(process.execPath, [LOAD_SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveLoad(JSON.parse(out)) : reject(new Error(`load.js: ${code}`))));
    child.stdin.end(JSON.stringify({ connections: CONNECTIONS, ...options }));
  });
}
const LOAD_SCRIPT = join(__dirname, 'load.js');

/**
 * A load's summary with the server's CPU use during it: `serverCpuSeconds`, `serverCpuPercent`,
 * and `serverCpuUsPerRequest` (rounded), CPU per answered request, far steadier than req/s when
 * other work shares the machine. `run` is `loadSync` or `load` with their options.
 */
async function withServerCpu(pid, run) {
  const cpuBefore = cpuSeconds(pid);
  const started = Date.now();
  const result = await run();
  const cpu = cpuSeconds(pid) - cpuBefore;
  const elapsed = (Date.now() - started) / 1000;
  result.serverCpuSeconds = cpu;
  result.serverCpuPercent = Math.round((cpu / elapsed) * 100);
  result.serverCpuUsPerRequest = result.requests > 0 ? Math.round((cpu * 1e6) / result.requests) : null;
  return result;
}

/** The body of every project the benches create. */
const PROJECT_BODY = { name: 'Bench project', description: 'Load', status: 'planned', start_date: '2026-06-01' };

/** A call that must succeed: its body, or an error naming the call. */
async function must(base, method, path, token, body) {
  const res = await call(base, method, path, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

/** `request` once per key, each with its key: the templates the load generator sends in turn. */
const rotating = (keys, request) =>
  keys.map((k) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${k}` } }));

/**
 * The project scenarios on a server that has the project routes (the service or the peer): 100
 * projects created with the first key, then the requests of GET by id (the first project), the
 * first page and POST, once per key. `ids` are the projects created.
 */
async function projectScenarios(base, keys) {
  const ids = [];
  for (let i = 0; i < 100; i++) ids.push((await must(base, 'POST', '/v1/projects', keys[0], PROJECT_BODY)).id);
  return {
    ids,
    scenarios: {
      get: {
        url: base,
        requests: rotating(keys, { method: 'GET', path: `/v1/projects/${ids[0]}`, headers: JSON_HEADERS }),
      },
      list: { url: base, requests: rotating(keys, { method: 'GET', path: '/v1/projects', headers: JSON_HEADERS }) },
      post: {
        url: base,
        requests: rotating(keys, {
          method: 'POST',
          path: '/v1/projects',
          headers: JSON_HEADERS,
          body: JSON.stringify(PROJECT_BODY),
        }),
      },
    },
  };
}

/**
 * What the HTTP scenarios of `npm run bench` and `npm run bench:compare` send: one workspace with
 * `keys` API keys, 100 projects and a job, and each scenario's requests, once per key. The load
 * generator sends them in turn, as an API with many clients sees them, so that authentication
 * and the per-key rate limits work on many keys, not one hot entry. `patch` is absent when the
 * job could not be created (a build without jobs). `keys` are the keys made.
 */
async function httpScenarios(base, { admin, keys: count }) {
  const ws = await must(base, 'POST', '/v1/admin/workspaces', admin, { name: 'Bench', plan: 'enterprise' });
  const keys = [];
  for (let i = 0; i < count; i++) {
    const created = await must(base, 'POST', `/v1/admin/workspaces/${ws.id}/api-keys`, admin, {
      name: `bench ${i}`,
      scope: 'full_access',
    });
    keys.push(created.key);
  }
  const { ids, scenarios } = await projectScenarios(base, keys);
  const job = await call(base, 'POST', `/v1/projects/${ids[1]}/jobs`, {
    token: keys[0],
    body: {
      name: 'Bench job',
      type: 'drone_inspection',
      job_pattern: 'one_time',
      start_date: new Date().toISOString().slice(0, 10),
    },
  });
  if (job.status === 201) {
    const fields = ['name', 'description', 'inspection_notes', 'external_id'];
    scenarios.patch = {
      url: base,
      requests: rotating(keys, {
        method: 'PATCH',
        path: `/v1/projects/${ids[1]}/jobs/${job.body.id}`,
        headers: JSON_HEADERS,
      }).map((request, i) => ({ ...request, body: JSON.stringify({ [fields[i % fields.length]]: `value ${i}` }) })),
    };
  }
  return { scenarios, jobStatus: job.status, keys };
}

/**
 * The conventional peer (bench/peer/) on a fresh database at `dbFile`, holding `keys` (as their
 * SHA-256, in one workspace), with the same 100 projects as the service and the same scenarios
 * (`projectScenarios`): `{ child, url, stop, scenarios }`.
 */
async function startPeer(keys, dbFile) {
  const keysFile = `${dbFile}.keys.json`;
  const rows = keys.map((key, i) => ({
    key_hash: createHash('sha256').update(key).digest('hex'),
    key_id: `key_${i}`,
    name: `bench ${i}`,
    workspace_id: 'ws_bench',
    scope: 'full_access',
  }));
  writeFileSync(keysFile, JSON.stringify(rows));
  const peer = await startBaseline('nest-peer.js', { DB_FILE: dbFile, API_KEYS_FILE: keysFile });
  try {
    const { scenarios } = await projectScenarios(peer.url.replace(/\/$/, ''), keys);
    return { ...peer, scenarios };
  } catch (error) {
    await peer.stop();
    throw error;
  }
}

module.exports = {
  CONNECTIONS,
  PROJECT_BODY,
  ROW_INSERT,
  START_FLAGS,
  freePort,
  sleep,
  log,
  median,
  cpuSeconds,
  waitHttp,
  call,
  stopChild,
  startService,
  startBaseline,
  startPeer,
  load,
  loadSync,
  withServerCpu,
  httpScenarios,
};
