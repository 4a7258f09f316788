import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../support/service-client';
import type { ServiceProcess } from '../support/service-process';
import { startServiceProcess } from '../support/service-start';

/**
 * Clean starts and stops on the Node that runs the tests (CI runs this suite on the machine's
 * Node and on Node 24). On Node 24.19+ a better-sqlite3 built on `node::ObjectWrap`
 * (12.x) aborted the service in about half of its starts: a prepared statement collected by the
 * garbage collector where no Node environment was current tripped a CHECK in
 * `RemoveEnvironmentCleanupHook` (SIGABRT, exit 134), at start-up, under load or at shutdown
 * (libs/infrastructure/src/sqlite/sqlite-driver.js). A single start proves little, so the built
 * service is started on a fresh DATA_DIR, written to through both threads (the event store's
 * writer thread and the read models on the main one) and stopped with SIGTERM, RUNS times in a
 * row; every run must end with exit code 0, no signal and no native assertion in its output.
 */

const RUNS = Number(process.env.CLEAN_EXIT_RUNS ?? 8);
const WRITES_PER_RUN = 20;

jest.setTimeout(RUNS * 30_000);

async function oneRun(run: number): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wos-clean-exit-'));
  const adminToken = randomBytes(24).toString('hex');
  let service: ServiceProcess | undefined;
  try {
    try {
      service = await startServiceProcess({ DATA_DIR: dataDir, ADMIN_TOKEN: adminToken });
    } catch (error) {
      const message = (error as Error).message;
      const assertion = /Assertion failed[^\n]*/.exec(message);
      return `run ${run}: did not start: ${message.split('\n')[0]}${assertion ? ` (${assertion[0]})` : ''}\n${message.slice(-3000)}`;
    }
    try {
      const api = new ServiceClient(service.baseUrl, adminToken);
      const tenant = await api.provision({ name: `Clean exit ${run}` });
      for (let i = 0; i < WRITES_PER_RUN; i++) {
        const created = await api.call('POST', '/v1/projects', tenant.fullKey, {
          name: `Project ${i}`,
          description: 'Clean exit',
          status: 'planned',
          start_date: '2030-01-01',
        });
        if (created.status !== 201) return `run ${run}: POST /v1/projects answered ${created.status} ${created.text}`;
        const updated = await api.call('PATCH', `/v1/projects/${created.body.id}`, tenant.fullKey, {
          description: `changed ${i}`,
        });
        if (updated.status !== 200) return `run ${run}: PATCH answered ${updated.status} ${updated.text}`;
      }
      const listed = await api.call('GET', '/v1/projects', tenant.readKey);
      if (listed.status !== 200) return `run ${run}: GET /v1/projects answered ${listed.status}`;
    } catch (error) {
      // A transport error: most likely the process died under us; its exit tells why.
      if (service.child.exitCode === null && service.child.signalCode === null) throw error;
    }
    const code = await service.stop('SIGTERM');
    const signal = service.child.signalCode;
    const assertion = /Assertion failed[^\n]*|Native stack trace/.exec(service.output);
    if (code === 0 && signal === null && !assertion) return `run ${run}: clean`;
    return `run ${run}: exit ${code} signal ${signal}${assertion ? ` (${assertion[0]})` : ''}\n${service.output.slice(-3000)}`;
  } finally {
    if (service && service.child.exitCode === null && service.child.signalCode === null) await service.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe(`clean exits on Node ${process.version}`, () => {
  it(`starts, writes and stops with exit code 0, ${RUNS} times in a row`, async () => {
    const outcomes: string[] = [];
    for (let run = 1; run <= RUNS; run++) outcomes.push(await oneRun(run));
    expect(outcomes).toEqual(Array.from({ length: RUNS }, (_, i) => `run ${i + 1}: clean`));
  });
});
