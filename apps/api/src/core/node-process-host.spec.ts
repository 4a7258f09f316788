import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { nodeProcessHost } from './node-process-host';

describe('nodeProcessHost', () => {
  it('gives each call its own owner id, naming this host and process', () => {
    const [a, b] = [nodeProcessHost.newOwnerId(), nodeProcessHost.newOwnerId()];
    expect(a).not.toBe(b);
    expect(a.startsWith(`${hostname()}:${process.pid}:`)).toBe(true);
  });

  it('never judges this process, a running one, another host or a malformed id dead', () => {
    expect(nodeProcessHost.isDeadOwner(nodeProcessHost.newOwnerId())).toBe(false);
    expect(nodeProcessHost.isDeadOwner(`${hostname()}:${process.ppid}:abcd`)).toBe(false);
    expect(nodeProcessHost.isDeadOwner(`another-host-${hostname()}:999999:abcd`)).toBe(false);
    expect(nodeProcessHost.isDeadOwner(`${hostname()}:not-a-pid:abcd`)).toBe(false);
    expect(nodeProcessHost.isDeadOwner('')).toBe(false);
  });

  it('judges a process of this host that has exited dead', async () => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = child.pid!;
    await new Promise((resolve) => child.on('exit', resolve));
    // Reaped once 'exit' fired, so the pid names no process (unless reused at once: vanishingly rare).
    expect(nodeProcessHost.isDeadOwner(`${hostname()}:${pid}:abcd`)).toBe(true);
  });
});
