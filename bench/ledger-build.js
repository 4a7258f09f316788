#!/usr/bin/env node
/**
 * `node bench/ledger-build.js [events]` (default 1,000,000): the cost of building the ledger
 * (docs/ledger.md) over a large history. Seeds an embedded event store straight through the SQLite
 * adapter (bench/seed-events.js: projects created then updated), then builds the log from empty
 * with the service's own Ledger over the SQLite stores, read, hashed and appended on the writer
 * thread as the projector does, and reports events per second and the peak RSS; then one
 * inclusion proof, one consistency proof and a verification at that size. Run on the built
 * service (`npm run build` first).
 */
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { seed } = require('./seed-events');

/** CPU seconds of this process's main thread (Linux: its task's utime and stime, in clock ticks of 10 ms). */
function mainThreadCpuSeconds() {
  const stat = readFileSync(`/proc/${process.pid}/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const dist = (p) => require(join(__dirname, '..', 'dist', p));

async function main() {
  const events = Number(process.argv[2] ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'wos-ledger-bench-'));
  try {
    const started = Date.now();
    await seed(dir, [{ name: 'ledger', projects: Math.ceil(events / 10), updatesPerProject: 9 }]);
    console.log(`seeded ${events} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const { SqliteEventStore, SqliteLedgerStore } = dist('libs/infrastructure/src/sqlite');
    const { Ledger } = dist('libs/application/src/ledger/ledger');
    const { Ed25519LedgerSigner } = dist('libs/infrastructure/src/ledger');
    const store = new SqliteEventStore(join(dir, 'events.db'), { writer: 'inline' });
    const ledgerStore = new SqliteLedgerStore(join(dir, 'ledger.db'), {
      writer: 'worker',
      eventsFile: join(dir, 'events.db'),
    });
    const ledger = new Ledger(store, ledgerStore, Ed25519LedgerSigner.fromKeyFile(join(dir, 'ledger-signing.key')), {
      headIntervalMs: 0,
    });
    let peak = 0;
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadCpuSeconds();
    const t0 = process.hrtime.bigint();
    let built = 0;
    for (let n; (n = await ledger.step()) > 0;) {
      built += n;
      if (built % 50_000 < n) peak = Math.max(peak, process.memoryUsage().rss);
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(cpu0);
    // What the build takes from the thread of the API's event loop (the rest runs on other threads).
    const mainCpu = mainThreadCpuSeconds() - main0;
    console.log(
      `built the log over ${built} events in ${seconds.toFixed(1)} s: ${Math.round(built / seconds)} events/s, ` +
        `CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, of which the main thread ${mainCpu.toFixed(1)} s ` +
        `(${((mainCpu * 1e6) / built).toFixed(1)} µs an event), peak RSS ${(peak / 2 ** 20).toFixed(0)} MB`,
    );

    const time = async (label, work) => {
      const t = process.hrtime.bigint();
      const before = process.memoryUsage().rss;
      await work();
      console.log(
        `${label}: ${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(0)} ms, RSS ${(before / 2 ** 20).toFixed(0)} -> ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
      );
    };
    await time('sign a head', () => ledger.signHead());
    await time('inclusion proof of the middle event', () =>
      ledger.inclusion({ position: Math.floor(built / 2) }, built),
    );
    await time('inclusion proof of another event (kept subtrees)', () =>
      ledger.inclusion({ position: Math.floor(built / 5) }, built),
    );
    await time('consistency proof (size/3 -> size)', () => ledger.consistency(Math.floor(built / 3), built));
    await time('verify the log against the store', () => ledger.verify());
    await ledgerStore.close();
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
