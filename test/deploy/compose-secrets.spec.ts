import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** scripts/compose-secrets.sh, run for real (it needs openssl, as the operator's host does). */
describe('scripts/compose-secrets.sh', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wos-compose-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = () => execFileSync(join(__dirname, '../../scripts/compose-secrets.sh'), [dir], { stdio: 'pipe' });
  const mode = (file: string) => statSync(join(dir, file)).mode & 0o777;

  it('makes the passwords, the replica set keyfile and a self-signed certificate, owner-only, and keeps them on a second run', () => {
    run();
    const envFile = readFileSync(join(dir, '.env'), 'utf8');
    for (const name of ['MONGODB_ROOT_PASSWORD', 'MONGODB_SERVICE_PASSWORD', 'REDIS_PASSWORD'])
      expect(envFile).toMatch(new RegExp(`^${name}=[0-9a-f]{48}$`, 'm'));
    expect(mode('.env')).toBe(0o600);
    // mongod's limits for a keyfile: 6 to 1024 base64 characters, readable by its owner alone.
    const keyfile = readFileSync(join(dir, 'docker/secrets/mongodb-keyfile'), 'utf8').replace(/\s/g, '');
    expect(keyfile).toMatch(/^[A-Za-z0-9+/=]{6,1024}$/);
    expect(mode('docker/secrets/mongodb-keyfile')).toBe(0o600);

    const cert = new X509Certificate(readFileSync(join(dir, 'docker/certs/tls.crt')));
    expect(cert.subjectAltName).toContain('DNS:localhost');
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.checkPrivateKey(createPrivateKey(readFileSync(join(dir, 'docker/certs/tls.key'))))).toBe(true);
    expect(mode('docker/certs/tls.key')).toBe(0o600);

    const before = [envFile, keyfile, cert.fingerprint256];
    run();
    const after = [
      readFileSync(join(dir, '.env'), 'utf8'),
      readFileSync(join(dir, 'docker/secrets/mongodb-keyfile'), 'utf8').replace(/\s/g, ''),
      new X509Certificate(readFileSync(join(dir, 'docker/certs/tls.crt'))).fingerprint256,
    ];
    expect(after).toEqual(before);
  });

  it('makes a certificate that Node trusts for localhost and 127.0.0.1 with NODE_EXTRA_CA_CERTS, as the docs use it', async () => {
    run();
    const certFile = join(dir, 'docker/certs/tls.crt');
    const server = createServer(
      { cert: readFileSync(certFile), key: readFileSync(join(dir, 'docker/certs/tls.key')) },
      (_request, response) => response.end('ok'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fetchWith = (env: Record<string, string>, host: string) =>
      new Promise<string>((resolve) => {
        const script = `fetch('https://${host}:${port}/').then((r) => r.text()).then(console.log, (e) => console.log(e.cause?.code ?? e.message))`;
        execFile(process.execPath, ['-e', script], { env: { ...process.env, ...env } }, (_error, stdout) =>
          resolve(stdout.trim()),
        );
      });
    try {
      expect(await fetchWith({ NODE_EXTRA_CA_CERTS: certFile }, '127.0.0.1')).toBe('ok');
      expect(await fetchWith({ NODE_EXTRA_CA_CERTS: certFile }, 'localhost')).toBe('ok');
      expect(await fetchWith({}, '127.0.0.1')).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      server.close();
    }
  });
});
