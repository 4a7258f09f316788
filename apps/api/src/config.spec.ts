import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { ADMIN_TOKEN_FILE, prepareDataDir } from './data-dir';

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

  it('only parses: it creates neither DATA_DIR nor a token', () => {
    const dataDir = join(dir, 'not-yet');
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({ dataDir, adminToken: null, logLevel: 'info' });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses a LOG_LEVEL it does not know, naming the variable', () => {
    expect(() => load({ LOG_LEVEL: 'loud' })).toThrow(
      'LOG_LEVEL must be one of: trace, debug, info, warn, error, fatal, silent (got "loud")',
    );
  });
});

describe('the start-up step', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'data-dir-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates DATA_DIR, and generates the admin token once, kept in DATA_DIR/admin-token', () => {
    const dataDir = join(dir, 'data');
    const first = prepareDataDir(loadConfig({ DATA_DIR: dataDir }));
    expect(first.adminTokenGenerated).toBe(true);
    expect(first.config.adminToken).toMatch(/^adm_/);
    expect(readFileSync(join(dataDir, ADMIN_TOKEN_FILE), 'utf8').trim()).toBe(first.config.adminToken);

    const again = prepareDataDir(loadConfig({ DATA_DIR: dataDir }));
    expect(again).toEqual({ config: first.config, adminTokenGenerated: false });
  });

  it('takes ADMIN_TOKEN when it is set, and saves nothing', () => {
    const { config, adminTokenGenerated } = prepareDataDir(loadConfig({ DATA_DIR: dir, ADMIN_TOKEN: 'adm_given' }));
    expect(config.adminToken).toBe('adm_given');
    expect(adminTokenGenerated).toBe(false);
    expect(existsSync(join(dir, ADMIN_TOKEN_FILE))).toBe(false);
  });
});
