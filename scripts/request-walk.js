#!/usr/bin/env node
/**
 * `npm run walk`: which of the project's files run code for one request. Starts the built service
 * in this process on a fresh DATA_DIR, provisions a workspace, warms up, and then, for each of
 * POST /v1/projects and GET /v1/projects/{id}, records V8's precise coverage around that one request
 * (the counters are reset just before it) and prints the source files with a function that ran.
 *
 * The main thread only: code that runs on the embedded stores' worker threads (their *.worker.js
 * files) is not seen here. Work that other timers do while the request is in flight (the projection
 * engine's poll, a metrics tick) shows up too; each request is recorded several times and only the
 * files seen every time are listed.
 */
const { Session } = require('node:inspector/promises');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative } = require('node:path');
const { fileURLToPath } = require('node:url');

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
const RUNS = 5;
const ADMIN = 'adm_request_walk';

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'wos-walk-'));
  Object.assign(process.env, { DATA_DIR: dataDir, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'silent', PORT: '3999' });
  require('reflect-metadata');
  const { loadConfig } = require(join(DIST, 'apps/api/src/config.js'));
  const { createApp } = require(join(DIST, 'apps/api/src/bootstrap.js'));
  const config = loadConfig();
  const app = await createApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const call = async (method, path, token, body) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  try {
    const ws = await call('POST', '/v1/admin/workspaces', ADMIN, { name: 'Walk', plan: 'enterprise' });
    const { key } = await call('POST', `/v1/admin/workspaces/${ws.id}/api-keys`, ADMIN, {
      name: 'walk',
      scope: 'full_access',
    });
    const project = {
      name: 'Dam inspection',
      description: 'Spillway',
      status: 'planned',
      start_date: '2026-12-01',
    };
    const post = () => call('POST', '/v1/projects', key, project);
    let last;
    for (let i = 0; i < 20; i++) last = await post();
    const get = () => call('GET', `/v1/projects/${last.id}`, key);
    for (let i = 0; i < 20; i++) await get();

    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    for (const [name, request] of [
      ['POST /v1/projects', post],
      ['GET /v1/projects/{id}', get],
    ]) {
      let seen;
      for (let run = 0; run < RUNS; run++) {
        await session.post('Profiler.takePreciseCoverage');
        await request();
        const { result } = await session.post('Profiler.takePreciseCoverage');
        const files = new Set(
          result
            .filter(ranAny)
            .map((s) => sourceOf(s.url))
            .filter(Boolean),
        );
        seen = seen ? new Set([...seen].filter((f) => files.has(f))) : files;
      }
      const sorted = [...seen].sort();
      process.stdout.write(`\n${name}: ${sorted.length} files\n${sorted.map((f) => `  ${f}`).join('\n')}\n`);
    }
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function ranAny(script) {
  return script.functions.some((f) => f.ranges.some((r) => r.count > 0));
}

/** The project source file a compiled script comes from, or undefined for anything else. */
function sourceOf(url) {
  if (!url.startsWith('file://')) return undefined;
  const path = fileURLToPath(url);
  if (path.includes('node_modules')) return undefined;
  if (path.startsWith(DIST)) return relative(DIST, path).replace(/\.js$/, '.ts');
  return undefined;
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
