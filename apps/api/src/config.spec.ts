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

  it('trusts no proxy unless TRUST_PROXY says which: true, a hop count, or addresses and CIDR ranges', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(load({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual({ addresses: ['127.0.0.1'] });
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 172.16.0.0/12,fd00::/8,::1,loopback' }).trustProxy).toEqual({
      addresses: ['10.0.0.0/8', '172.16.0.0/12', 'fd00::/8', '::1', 'loopback'],
    });
  });

  it('takes PUBLIC_URL as an http(s) base without its trailing slash, and builds links from requests without it', () => {
    expect(load({}).publicUrl).toBeNull();
    expect(load({ PUBLIC_URL: 'https://ops.example.com/' }).publicUrl).toBe('https://ops.example.com');
    expect(load({ PUBLIC_URL: 'http://localhost:3000/ops//' }).publicUrl).toBe('http://localhost:3000/ops');
    for (const bad of ['ops.example.com', 'ftp://x', 'https://x/?a=1', 'https://u:p@x']) {
      expect(() => load({ PUBLIC_URL: bad })).toThrow(/^PUBLIC_URL must be/);
    }
  });

  it('makes dashboard sign-in links last 15 minutes unless DASHBOARD_LINK_TTL_SECONDS says otherwise', () => {
    expect(load({}).dashboardLinkTtlMs).toBe(900_000);
    expect(load({ DASHBOARD_LINK_TTL_SECONDS: '2' }).dashboardLinkTtlMs).toBe(2000);
    expect(() => load({ DASHBOARD_LINK_TTL_SECONDS: '0' })).toThrow(
      'DASHBOARD_LINK_TTL_SECONDS must be a positive integer',
    );
  });

  it('refuses a TRUST_PROXY that names no address, naming the variable and the bad entry', () => {
    for (const bad of [
      'yes',
      '10.0.0.0/33',
      '10.0.0.1,proxy.internal',
      '1.2.3',
      '-1',
      '::1/129',
      '10.0.0.0/8/1',
      ',',
    ]) {
      expect(() => load({ TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => load({ TRUST_PROXY: bad })).toThrow(
        /^TRUST_PROXY must be true, false, a hop count, or comma-separated/,
      );
    }
    expect(() => load({ TRUST_PROXY: '10.0.0.1,proxy.internal' })).toThrow(
      '(got "proxy.internal" in "10.0.0.1,proxy.internal")',
    );
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
