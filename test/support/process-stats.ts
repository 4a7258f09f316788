import { readFileSync } from 'node:fs';

/**
 * Resident set size of a process in bytes, read from /proc (Linux). Falls back to the service's
 * own Prometheus gauge when /proc is not there (macOS developers), so callers always get a number
 * or a clear error.
 */
export async function residentBytes(pid: number, baseUrl?: string): Promise<number> {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
    if (match) return Number(match[1]) * 1024;
  } catch {
    /* no /proc: use the metric */
  }
  if (!baseUrl) throw new Error(`cannot read the RSS of process ${pid}`);
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const match = /^process_resident_memory_bytes\s+(\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
  if (!match) throw new Error('process_resident_memory_bytes is not in /metrics');
  return Number(match[1]);
}

export const MiB = 1024 * 1024;
