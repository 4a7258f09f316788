/**
 * What the benchmark scripts share (bench/run.js, bench/compare.js, bench/budget.js): free ports,
 * the server's CPU time, waiting for a service to answer, calls to its API, and medians.
 */
const { readFileSync } = require('node:fs');
const { createServer } = require('node:net');

const CLK_TCK = 100;

/** A port the OS just handed out: the machine is shared, and fixed ranges met other benches' servers. */
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

module.exports = { freePort, sleep, log, median, cpuSeconds, waitHttp, call };
