#!/usr/bin/env node
/**
 * `npm run bench:compare -- <before> <after> [get|list|post|patch ...]`: two builds of the service
 * measured at the same moments. On these shared machines the same build's throughput moves by
 * 30% within minutes, so builds run one after the other cannot be told apart by a few percent.
 * Here both services run at once, each on a fresh DATA_DIR with its own load generator, and every
 * scenario starts on both together: whatever the host does, it does to both. Each gets about half
 * the machine, so the absolute figures are low; the ratio after/before, repeated over several
 * pairs, is the result (its median, with every pair shown).
 *
 * <before> and <after>: a git revision (checked out in a temporary worktree that shares this
 * checkout's node_modules, and built there) or the path of a built `main.js`.
 *
 * BENCH_PAIRS (default 5), BENCH_SECONDS (measured interval per scenario, default 8),
 * BENCH_WARMUP_SECONDS (default 2), BENCH_KEYS (API keys in rotation, default 100),
 * BENCH_LOG_LEVEL (the services' LOG_LEVEL, default info).
 */
const { execFileSync, spawn } = require('node:child_process');
const { existsSync, mkdtempSync, rmSync, symlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const { call, cpuSeconds, freePort, log, median, waitHttp } = require('./harness');

const ROOT = join(__dirname, '..');
const PAIRS = Number(process.env.BENCH_PAIRS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const KEYS = Number(process.env.BENCH_KEYS ?? 100);
const CONNECTIONS = 50;
const ADMIN = 'adm_bench_compare';
const SCENARIOS = ['get', 'list', 'post', 'patch'];
const START_FLAGS = require('../scripts/start-flags').startFlags();

/** Worktrees made for revisions: removed at the end, whatever happens. */
const worktrees = [];

/** The `main.js` of a build: the path given, or a revision checked out and built. */
function entryOf(build) {
  if (existsSync(build)) return resolve(build);
  const dir = mkdtempSync(join(tmpdir(), 'wos-compare-'));
  log(`Building ${build} in ${dir}`);
  execFileSync('git', ['worktree', 'add', '--detach', dir, build], { cwd: ROOT, stdio: 'ignore' });
  worktrees.push(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return join(dir, 'dist/apps/api/src/main.js');
}

async function startService(entry) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'wos-compare-data-'));
  const child = spawn(process.execPath, [...START_FLAGS, entry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_TOKEN: ADMIN,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      RATE_LIMIT_PER_SECOND: '1000000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitHttp(`${base}/health`, 120_000, child);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { child, base, stop };
}

/** An API call that must succeed (the fixtures): its parsed body. */
async function api(base, method, path, { token = ADMIN, body } = {}) {
  const res = await call(base, method, path, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The requests of each scenario, as `npm run bench` sends them (keys in rotation). */
async function scenariosOf(base) {
  const ws = await api(base, 'POST', '/v1/admin/workspaces', { body: { name: 'Compare', plan: 'enterprise' } });
  const keys = [];
  for (let i = 0; i < KEYS; i++) {
    const key = await api(base, 'POST', `/v1/admin/workspaces/${ws.id}/api-keys`, {
      body: { name: `compare ${i}`, scope: 'full_access' },
    });
    keys.push(key.key);
  }
  const auth = { 'content-type': 'application/json' };
  const rotating = (request) =>
    keys.map((k) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${k}` } }));
  const project = { name: 'Bench project', description: 'Load', status: 'planned', start_date: '2026-06-01' };
  const ids = [];
  for (let i = 0; i < 100; i++)
    ids.push((await api(base, 'POST', '/v1/projects', { token: keys[0], body: project })).id);
  const job = await api(base, 'POST', `/v1/projects/${ids[1]}/jobs`, {
    token: keys[0],
    body: {
      name: 'Bench job',
      type: 'drone_inspection',
      job_pattern: 'one_time',
      start_date: new Date().toISOString().slice(0, 10),
    },
  });
  const fields = ['name', 'description', 'inspection_notes', 'external_id'];
  const patchPath = `/v1/projects/${ids[1]}/jobs/${job.id}`;
  return {
    get: { url: base, requests: rotating({ method: 'GET', path: `/v1/projects/${ids[0]}`, headers: auth }) },
    list: { url: base, requests: rotating({ method: 'GET', path: '/v1/projects', headers: auth }) },
    post: {
      url: base,
      requests: rotating({ method: 'POST', path: '/v1/projects', headers: auth, body: JSON.stringify(project) }),
    },
    patch: {
      url: base,
      requests: rotating({ method: 'PATCH', path: patchPath, headers: auth }).map((r, i) => ({
        ...r,
        body: JSON.stringify({ [fields[i % fields.length]]: `value ${i}` }),
      })),
    },
  };
}

/** autocannon in its own process (bench/load.js), without blocking: both services are loaded at once. */
function load(options) {
  return new Promise((resolveLoad, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'load.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveLoad(JSON.parse(out)) : reject(new Error(`load.js: ${code}`))));
    child.stdin.end(JSON.stringify({ ...options, connections: CONNECTIONS }));
  });
}

async function measured(service, options) {
  const cpu0 = cpuSeconds(service.child.pid);
  const result = await load({ ...options, duration: SECONDS });
  const cpu = cpuSeconds(service.child.pid) - cpu0;
  return { rps: result.rps, p99: result.latency.p99, non2xx: result.non2xx, cpuUs: (cpu * 1e6) / result.requests };
}

async function main() {
  const [before, after, ...wanted] = process.argv.slice(2);
  if (!before || !after) {
    log(
      'usage: npm run bench:compare -- <before: revision or main.js> <after: revision or main.js> [get|list|post|patch ...]',
    );
    process.exit(2);
  }
  const scenarios = wanted.length > 0 ? wanted : SCENARIOS;
  const unknown = scenarios.filter((s) => !SCENARIOS.includes(s));
  if (unknown.length > 0)
    throw new Error(`unknown scenario(s): ${unknown.join(', ')} (known: ${SCENARIOS.join(', ')})`);
  const entries = [entryOf(before), entryOf(after)];
  const ratios = Object.fromEntries(scenarios.map((s) => [s, { rps: [], cpu: [] }]));
  for (let pair = 1; pair <= PAIRS; pair++) {
    // Which build starts, and gets its load generator, first alternates from pair to pair.
    const order = pair % 2 === 1 ? [0, 1] : [1, 0];
    const both = async (run) => {
      const results = [];
      await Promise.all(order.map(async (i) => (results[i] = await run(i))));
      return results;
    };
    const services = await both((i) => startService(entries[i]));
    try {
      const fixtures = await both((i) => scenariosOf(services[i].base));
      for (const name of scenarios) {
        if (WARMUP > 0) await both((i) => load({ ...fixtures[i][name], duration: WARMUP }));
        const [b, a] = await both((i) => measured(services[i], fixtures[i][name]));
        if (b.non2xx > 0 || a.non2xx > 0)
          throw new Error(`${name}: answers that are not 2xx (${b.non2xx}, ${a.non2xx})`);
        ratios[name].rps.push(a.rps / b.rps);
        ratios[name].cpu.push(a.cpuUs / b.cpuUs);
        log(
          `pair ${pair} ${name}: before ${Math.round(b.rps)} req/s, ${Math.round(b.cpuUs)} µs, p99 ${b.p99} ms; ` +
            `after ${Math.round(a.rps)} req/s, ${Math.round(a.cpuUs)} µs, p99 ${a.p99} ms`,
        );
      }
    } finally {
      await Promise.all(services.map((s) => s.stop()));
    }
  }
  const fmt = (values) => values.map((v) => v.toFixed(2)).join(', ');
  console.log(`\nafter / before, ${PAIRS} pair(s) measured at the same moments (${SECONDS} s each)\n`);
  console.log('| scenario | req/s, median | every pair | CPU a request, median | every pair |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const name of scenarios) {
    const { rps, cpu } = ratios[name];
    console.log(`| ${name} | ${median(rps).toFixed(2)} | ${fmt(rps)} | ${median(cpu).toFixed(2)} | ${fmt(cpu)} |`);
  }
}

main()
  .catch((error) => {
    log(String(error?.stack ?? error));
    process.exitCode = 1;
  })
  .finally(() => {
    for (const dir of worktrees) {
      try {
        execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' });
      } catch {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
