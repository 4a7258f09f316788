import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lateBound } from '../support/late-bound';

/** How a contract suite opens the adapter it checks, and lets it go. */
export type OpenAdapter<T> = () => Promise<{ store: T; close: () => Promise<void> }>;

/**
 * The adapter a contract suite checks: opened before each test (`per: 'test'`, so every test
 * starts from a fresh adapter) or once for the suite (`per: 'suite'`), and closed after. Call it
 * in the suite's `describe`; the answer stands for whichever adapter is open at the time.
 */
export function adapterUnderTest<T extends object>(open: OpenAdapter<T>, per: 'test' | 'suite' = 'test'): T {
  let current: Awaited<ReturnType<OpenAdapter<T>>> | undefined;
  (per === 'test' ? beforeEach : beforeAll)(async () => {
    current = await open();
  });
  (per === 'test' ? afterEach : afterAll)(async () => {
    await current?.close();
    current = undefined;
  });
  return lateBound(() => {
    if (current === undefined) throw new Error('the adapter under test is open only while a test runs');
    return current.store;
  });
}

/** Opens an adapter on a file in a fresh temporary directory; closing it removes the directory. */
export function inTemporaryDirectory<T extends { close(): Promise<void> }>(
  prefix: string,
  create: (dir: string) => T,
): OpenAdapter<T> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    const store = create(dir);
    return {
      store,
      close: async () => {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  };
}
