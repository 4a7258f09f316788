import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ProcessHost } from '@app/application';

/**
 * The ProcessHost of a Node process. An owner id is `host:pid:nonce`: enough to tell, on the same
 * host, that a lease holder's process is gone, so that its fan-out lease need not be waited out
 * (which matters most to the embedded deployment's restart). A reused pid merely means waiting for
 * the lease to end; another host's process is never judged dead from here.
 */
export const nodeProcessHost: ProcessHost = {
  newOwnerId: () => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
  isDeadOwner(owner: string): boolean {
    const [host, pid] = owner.split(':');
    if (host !== hostname() || !/^\d+$/.test(pid ?? '') || Number(pid) === process.pid) return false;
    try {
      // Signal 0 sends nothing: it only asks whether the process exists.
      process.kill(Number(pid), 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  },
};
