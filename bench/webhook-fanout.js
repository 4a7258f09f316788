// Webhook fan-out: events committed through the API, fanned out to 5 subscriptions, delivered
// signed to a local HTTPS receiver. The receiver lives in this process, so the load generator runs
// in a child process started asynchronously: a synchronous exec would freeze the receiver's event
// loop for the whole load (no TLS handshake, no answer), and every delivery made meanwhile would
// seem to take as long as the load itself.
// Phase 1 (throughput): a burst of BENCH_WEBHOOK_EVENTS creates; deliveries/s from the first
// commit to the last delivery. Phase 2 (latency): events paced below capacity; median and p95 of
// commit (the payload's timestamp) -> arrival.
const { createServer } = require('node:https');
const { load } = require('./harness');
const { mkdirSync, mkdtempSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { tmpdir } = require('node:os');

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const SUBSCRIPTIONS = 5;

async function startReceiver() {
  const { generate } = require('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'bench-ca-'));
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, pems.cert);
  const arrivals = [];
  const seen = new Set();
  const server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const id = `${req.url} ${req.headers['webhook-id']}`;
      if (!seen.has(id)) {
        seen.add(id);
        const body = JSON.parse(Buffer.concat(chunks).toString());
        arrivals.push({ at: now, committed: Date.parse(body.timestamp), type: body.type });
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: server.address().port, caFile, arrivals };
}

const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function waitFor(check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

async function run({ startService, api, scratch, log }) {
  log(`Webhook fan-out: ${EVENTS.toLocaleString()} events x ${SUBSCRIPTIONS} subscriptions`);
  const receiver = await startReceiver();
  const dir = join(scratch, 'webhooks');
  mkdirSync(dir);
  const svc = await startService(dir, { NODE_EXTRA_CA_CERTS: receiver.caFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  try {
    const ws = await api(svc.base, 'POST', '/v1/admin/workspaces', { body: { name: 'Hooks', plan: 'enterprise' } });
    const key = (
      await api(svc.base, 'POST', `/v1/admin/workspaces/${ws.body.id}/api-keys`, {
        body: { name: 'bench', scope: 'full_access' },
      })
    ).body.key;
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const created = await api(svc.base, 'POST', '/v1/webhooks', {
        token: key,
        body: {
          name: `Receiver ${i}`,
          url: `https://localhost:${receiver.port}/hook/${i}`,
          event_types: ['project.created'],
        },
      });
      if (created.status !== 201)
        throw new Error(`webhook create failed: ${created.status} ${JSON.stringify(created.body)}`);
    }
    const body = JSON.stringify({
      name: 'Hooked',
      description: 'Fan-out',
      status: 'planned',
      start_date: '2026-06-01',
    });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

    // Phase 1: burst.
    const started = Date.now();
    await load({ url: `${svc.base}/v1/projects`, method: 'POST', headers, body, amount: EVENTS, connections: 50 });
    const committedBy = Date.now();
    const expected = EVENTS * SUBSCRIPTIONS;
    const complete = await waitFor(() => receiver.arrivals.length >= expected, 300_000);
    const last = Math.max(...receiver.arrivals.map((a) => a.at));
    const throughput = Math.round(receiver.arrivals.length / ((last - started) / 1000));
    const burstDelays = receiver.arrivals.map((a) => a.at - a.committed);
    log(
      `  burst: ${receiver.arrivals.length}/${expected} deliveries, ${throughput}/s; commits took ${((committedBy - started) / 1000).toFixed(1)} s`,
    );

    // Phase 2: paced, below capacity.
    receiver.arrivals.length = 0;
    const paced = Math.min(500, EVENTS);
    await load({
      url: `${svc.base}/v1/projects`,
      method: 'POST',
      headers,
      body,
      amount: paced,
      connections: 5,
      overallRate: 100,
    });
    await waitFor(() => receiver.arrivals.length >= paced * SUBSCRIPTIONS, 60_000);
    const delays = receiver.arrivals.map((a) => a.at - a.committed);
    const median = pct(delays, 50);
    log(`  paced (100 events/s): median commit -> delivery ${median} ms, p95 ${pct(delays, 95)} ms`);
    return {
      name: `webhook fan-out: ${EVENTS.toLocaleString()} events x ${SUBSCRIPTIONS} subscriptions (HTTPS, signed)`,
      deliveriesPerSecond: throughput,
      delivered: receiver.arrivals.length,
      complete,
      burstMedianDelayMs: pct(burstDelays, 50),
      pacedMedianDelayMs: median,
      pacedP95DelayMs: pct(delays, 95),
      target: '>= 2,000 deliveries/s; median commit -> delivery <= 50 ms',
      met: complete && throughput >= 2000 && median <= 50,
    };
  } finally {
    await svc.stop();
    receiver.server.close();
  }
}

module.exports = { run };
