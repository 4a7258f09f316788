#!/usr/bin/env node
/**
 * `npm run bench:budget`: how much work per request the targets of `npm run bench` leave room for
 * on this machine. The two baselines of the targets are measured with some microseconds of busy
 * waiting (BENCH_WORK_US) added to every request, for several values, over several rounds, with
 * the same load as `npm run bench` (autocannon in its own process, 50 connections):
 *
 * - reads: bare Fastify with the work, as a ratio of bare Fastify without it (target 0.5 for a
 *   GET by id; a list page's answer is 18 KB, not this small body, so its 0.25 is not read here);
 * - durable writes: bare Fastify with group commit in a worker thread and the work
 *   (baselines/fastify-group-commit.js), as a ratio of the fsync-per-request baseline (target 2).
 *
 * The work a service can do per request at a target's ratio is where the curve crosses it. A
 * service spends part of its CPU a request on what a lower request rate costs by itself (each
 * response wakes the load generator, on the same cores): the curve includes that, a service's
 * CPU a request minus the baseline's does not. Compare a service's ratio with the curve, not its
 * CPU. The load generator shares the machine's cores, as in `npm run bench`.
 *
 * BENCH_SECONDS (measured interval, default 8), BENCH_WARMUP_SECONDS (default 2),
 * BENCH_BUDGET_ROUNDS (default 2), BENCH_BUDGET_READ_US (default 0,5,10,15,25,40) and
 * BENCH_BUDGET_WRITE_US (default 0,50,100,150,200): the work a request measured, in µs.
 */
const { mkdtempSync, mkdirSync, rmSync, writeFileSync } = require('node:fs');
const { cpus, tmpdir } = require('node:os');
const { join } = require('node:path');
const { CONNECTIONS, ROW_INSERT, loadSync, log, median, startBaseline, withServerCpu } = require('./harness');

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_BUDGET_ROUNDS ?? 2);
const list = (value, fallback) => (value ?? fallback).split(',').map(Number);
const READ_US = list(process.env.BENCH_BUDGET_READ_US, '0,5,10,15,25,40');
const WRITE_US = list(process.env.BENCH_BUDGET_WRITE_US, '0,50,100,150,200');
const TARGETS = [
  { name: 'GET by id', curve: 'read', ratio: 0.5 },
  { name: 'durable POST and PATCH', curve: 'write', ratio: 2 },
];

/** One server script doing `workUs` of work a request, loaded after a warm-up: its req/s and CPU a request. */
async function measure(script, workUs, request, scratch) {
  const baseline = await startBaseline(script, {
    BENCH_WORK_US: String(workUs),
    DB_FILE: join(scratch, `${Date.now()}.db`),
  });
  try {
    const options = { ...request, url: baseline.url };
    if (WARMUP > 0) loadSync({ ...options, duration: WARMUP });
    const result = await withServerCpu(baseline.child.pid, () => loadSync({ ...options, duration: SECONDS }));
    return { rps: result.rps, cpuUsPerRequest: result.serverCpuUsPerRequest ?? 0 };
  } finally {
    await baseline.stop();
  }
}

/** The work a request where the curve (falling ratios) crosses `ratio`, linearly interpolated; null outside it. */
function crossing(points, ratio) {
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    if (a.ratio >= ratio && b.ratio <= ratio)
      return a.ratio === b.ratio
        ? a.workUs
        : a.workUs + ((a.ratio - ratio) * (b.workUs - a.workUs)) / (a.ratio - b.ratio);
  }
  return null;
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'wos-budget-'));
  const rounds = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      log(`Round ${round + 1} of ${ROUNDS}`);
      const read = [];
      for (const workUs of READ_US) {
        read.push({ workUs, ...(await measure('fastify-json.js', workUs, {}, scratch)) });
        log(
          `  bare Fastify + ${workUs} µs: ${Math.round(read.at(-1).rps)} req/s, ${read.at(-1).cpuUsPerRequest} µs a request`,
        );
      }
      // The fsync baseline before and after the group-commit servers: the curve is read against both.
      const fsyncBefore = await measure('fastify-sqlite.js', 0, ROW_INSERT, scratch);
      const durable = [];
      for (const workUs of WRITE_US) {
        durable.push({ workUs, ...(await measure('fastify-group-commit.js', workUs, ROW_INSERT, scratch)) });
        log(
          `  group commit + ${workUs} µs: ${Math.round(durable.at(-1).rps)} req/s, ${durable.at(-1).cpuUsPerRequest} µs`,
        );
      }
      const fsyncAfter = await measure('fastify-sqlite.js', 0, ROW_INSERT, scratch);
      log(`  fsync per request: ${Math.round(fsyncBefore.rps)} and ${Math.round(fsyncAfter.rps)} req/s`);
      const bare = read.find((p) => p.workUs === 0) ?? read[0];
      const fsync = (fsyncBefore.rps + fsyncAfter.rps) / 2;
      rounds.push({
        read: read.map((p) => ({ ...p, ratio: p.rps / bare.rps })),
        write: durable.map((p) => ({ ...p, ratio: p.rps / fsync })),
        fsync: [fsyncBefore, fsyncAfter],
      });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const curve = (kind) =>
    (kind === 'read' ? READ_US : WRITE_US).map((workUs) => ({
      workUs,
      ratio: median(rounds.map((r) => r[kind].find((p) => p.workUs === workUs).ratio)),
      cpuUsPerRequest: Math.round(median(rounds.map((r) => r[kind].find((p) => p.workUs === workUs).cpuUsPerRequest))),
    }));
  const curves = { read: curve('read'), write: curve('write') };
  const budgets = TARGETS.map((t) => ({ ...t, workUs: crossing(curves[t.curve], t.ratio) }));
  const results = {
    started: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    settings: { seconds: SECONDS, warmupSeconds: WARMUP, rounds: ROUNDS, connections: CONNECTIONS },
    curves,
    budgets,
    rounds,
  };
  const dir = join(__dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'budget-latest.json'), JSON.stringify(results, null, 2));

  const out = (line) => process.stdout.write(`${line}\n`);
  out(`Work a request (µs) | read ratio (bare Fastify = 1) | server CPU a request`);
  for (const p of curves.read)
    out(`${String(p.workUs).padStart(19)} | ${p.ratio.toFixed(2).padStart(29)} | ${p.cpuUsPerRequest} µs`);
  out('');
  out(`Work a request (µs) | group-commit ratio (fsync per request = 1) | server CPU a request`);
  for (const p of curves.write)
    out(`${String(p.workUs).padStart(19)} | ${p.ratio.toFixed(2).padStart(42)} | ${p.cpuUsPerRequest} µs`);
  out('');
  for (const b of budgets)
    out(
      `${b.name} at ${b.ratio}x: ${b.workUs === null ? 'outside the measured range' : `about ${Math.round(b.workUs)} µs`} of work a request on the event loop`,
    );
  out(`\nMedians over ${ROUNDS} round(s); every measurement in bench/results/budget-latest.json`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
