import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AppConfig } from './config';
import { openRateLimitStore } from './adapters';

/** The configuration chooses the adapters in one file, so a reader finds every choice there. */
describe('the adapter choice', () => {
  const root = __dirname;
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
    });
  const STORAGE_ADAPTERS = /@app\/infrastructure(\/(sqlite|mongodb|redis|memory|eventstoredb|http|webhooks))?['"]/;

  it('is the only file of apps/api that imports an adapter', () => {
    const choosing = sources(root).filter((file) => STORAGE_ADAPTERS.test(readFileSync(file, 'utf8')));
    expect(choosing.map((file) => relative(root, file))).toEqual(['adapters.ts']);
  });

  it('gives the embedded adapters by default', async () => {
    const config = { readStore: 'sqlite', rateLimitStore: 'memory' } as AppConfig;
    const limits = await openRateLimitStore(config);
    expect(limits.constructor.name).toBe('MemoryRateLimitStore');
    await limits.close();
  });
});
