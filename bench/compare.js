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
 * checkout's node_modules, built there with its own `npm run build`, and started as its own
 * `npm start` starts it: the entry point and Node flags of that script in its package.json) or the
 * path of a built `main.js` (started with this checkout's `npm start` flags).
 *
 * BENCH_PAIRS (default 5), BENCH_SECONDS (measured interval per scenario, default 8),
 * BENCH_WARMUP_SECONDS (default 2), BENCH_KEYS (API keys in rotation, default 100),
 * BENCH_LOG_LEVEL (the services' LOG_LEVEL, default info), BENCH_BEFORE_ENV / BENCH_AFTER_ENV
 * (`NAME=value` pairs separated by spaces, added to one side's environment: one build against
 * itself with a setting changed, e.g. BENCH_BEFORE_ENV=LEDGER=off).
 */
const { execFileSync } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const harness = require('./harness');
const { httpScenarios, load, log, median, withServerCpu } = harness;

const ROOT = join(__dirname, '..');
const PAIRS = Number(process.env.BENCH_PAIRS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const KEYS = Number(process.env.BENCH_KEYS ?? 100);
const ADMIN = 'adm_bench_compare';
const SCENARIOS = ['get', 'list', 'post', 'patch'];

/** `NAME=value NAME=value` as an environment object. */
function envOf(text = '') {
  const pairs = text.split(/\s+/).filter(Boolean);
  const bad = pairs.filter((pair) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(pair));
  if (bad.length > 0) throw new Error(`not NAME=value: ${bad.join(' ')}`);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** Worktrees made for revisions: removed at the end, whatever happens. */
const worktrees = [];

/**
 * How a checkout's `npm start` starts the service: the `.js` its last command runs and the Node
 * flags before it, read from its package.json.
 */
function startOf(dir) {
  const start = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.start ?? '';
  const args = start.split('&&').pop().trim().split(/\s+/);
  const entry = args.find((arg) => arg.endsWith('.js'));
  if (!entry) throw new Error(`${dir}: no entry point in its start script (${start})`);
  return { entry: join(dir, entry), startFlags: args.filter((arg) => arg.startsWith('--')) };
}

/** A build to measure, `{ entry, startFlags }`: the `main.js` given, or a revision checked out and built. */
function buildOf(build) {
  if (existsSync(build)) return { entry: resolve(build), startFlags: harness.START_FLAGS };
  const dir = mkdtempSync(join(tmpdir(), 'wos-compare-'));
  log(`Building ${build} in ${dir}`);
  execFileSync('git', ['worktree', 'add', '--detach', dir, build], { cwd: ROOT, stdio: 'ignore' });
  worktrees.push(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  const started = startOf(dir);
  if (!existsSync(started.entry)) throw new Error(`${build}: the build left no ${started.entry}`);
  return started;
}

/** A build's service on a data directory of its own, removed when it stops. */
async function startService({ entry, startFlags, env }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wos-compare-data-'));
  try {
    const svc = await harness.startService({ entry, startFlags, env, dataDir, admin: ADMIN });
    return {
      ...svc,
      stop: async () => {
        await svc.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** One scenario's load on one service, its server CPU a request unrounded (ratios of two builds). */
async function measured(service, options) {
  const result = await withServerCpu(service.child.pid, () => load({ ...options, duration: SECONDS }));
  return {
    rps: result.rps,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    cpuUs: (result.serverCpuSeconds * 1e6) / result.requests,
  };
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
  const envs = [envOf(process.env.BENCH_BEFORE_ENV), envOf(process.env.BENCH_AFTER_ENV)];
  const builds = [before, after].map((build, i) => ({ ...buildOf(build), env: envs[i] }));
  const ratios = Object.fromEntries(scenarios.map((s) => [s, { rps: [], cpu: [] }]));
  for (let pair = 1; pair <= PAIRS; pair++) {
    // Which build starts, and gets its load generator, first alternates from pair to pair.
    const order = pair % 2 === 1 ? [0, 1] : [1, 0];
    const both = async (run) => {
      const results = [];
      await Promise.all(order.map(async (i) => (results[i] = await run(i))));
      return results;
    };
    const services = await both((i) => startService(builds[i]));
    try {
      const fixtures = await both(async (i) => {
        const { scenarios: http, jobStatus } = await httpScenarios(services[i].base, { admin: ADMIN, keys: KEYS });
        if (scenarios.includes('patch') && !http.patch) throw new Error(`no job to PATCH (${jobStatus})`);
        return http;
      });
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
