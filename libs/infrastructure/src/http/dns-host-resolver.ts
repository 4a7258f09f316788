import { lookup } from 'node:dns/promises';
import type { HostResolver } from '@app/application/ports';

/**
 * Resolves names the way the operating system does (getaddrinfo: /etc/hosts, then DNS), every
 * address of every family, within a deadline. A failure or timeout is "no address": the caller
 * decides what that means.
 */
export class DnsHostResolver implements HostResolver {
  async resolve(hostname: string, timeoutMs: number): Promise<string[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string[]>((resolve) => {
      timer = setTimeout(() => resolve([]), timeoutMs);
    });
    const resolved = lookup(hostname, { all: true, verbatim: true })
      .then((found) => found.map((entry) => entry.address))
      .catch(() => [] as string[]);
    try {
      return await Promise.race([resolved, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
