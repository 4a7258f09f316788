import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const load = (env: NodeJS.ProcessEnv) => loadConfig({ DATA_DIR: dir, ADMIN_TOKEN: 'adm_test', ...env });

  it('keeps the read cache on unless READ_CACHE turns it off', () => {
    expect(load({}).readCache).toBe('on');
    expect(load({ READ_CACHE: 'off' }).readCache).toBe('off');
  });

  it('refuses a READ_CACHE it does not know, naming the variable', () => {
    expect(() => load({ READ_CACHE: 'yes' })).toThrow(ConfigError);
    expect(() => load({ READ_CACHE: 'yes' })).toThrow('READ_CACHE must be one of: on, off (got "yes")');
  });
});
