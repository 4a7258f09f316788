import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../apps/api/src/config';

/**
 * No Docker engine runs in CI, so docker-compose.yml is checked by what it relies on: it parses;
 * every image is pinned; only the proxy publishes ports, the operators' entry point on loopback
 * alone; every service has a health check; the stores sit on an internal network with passwords;
 * the public entry point is TLS and serves neither the operator API, the metrics nor the docs;
 * one projector and scalable replicas share one DATA_DIR volume; and the event store's volumes
 * are where its image keeps its data.
 */
// js-yaml is a devDependency; it ships no types of its own.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- no type declarations to import
const { load } = require('js-yaml') as { load: (text: string) => unknown };

interface Service {
  image?: string;
  build?: { dockerfile?: string };
  ports?: string[];
  expose?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  labels?: Record<string, string>;
  command?: string[];
  entrypoint?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  networks?: string[];
  secrets?: string[];
}

const ROOT = join(__dirname, '../..');
const compose = load(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  networks: Record<string, { internal?: boolean; name?: string } | null>;
  secrets: Record<string, { file: string }>;
};
const services = compose.services;
const env = (name: string) => services[name].environment ?? {};
const appServices = Object.keys(services).filter((name) => services[name].build !== undefined);
const STORES = ['eventstoredb', 'mongodb', 'redis'];

/** An exact version: `name:1.2.3` (a variant suffix allowed, `-alpine`), or a digest. */
const PINNED = /^[a-z0-9./-]+(:v?\d+\.\d+\.\d+(-[a-z0-9.-]+)?)?(@sha256:[0-9a-f]{64})?$/;
const isPinned = (image: string) =>
  PINNED.test(image) && (/:v?\d+\.\d+\.\d+/.test(image) || image.includes('@sha256:'));

/**
 * `${NAME...}` interpolations replaced by a value, as Compose does with an .env file: a variable
 * with a default (`${NAME:-default}`) takes it, as when .env leaves it out; any other a stand-in.
 */
const interpolated = (value: string | number) =>
  String(value).replace(/\$\{([A-Z_]+)(:?[-?][^}]*)?\}/g, (_match, name: string, modifier?: string) =>
    modifier?.startsWith(':-') ? modifier.slice(2) : `${name.toLowerCase()}-value`,
  );

// Traefik's command line and the entry points it defines.
const proxy = services.proxy;
const flag = (name: string) => proxy.command?.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
const entryPoints = (proxy.command ?? [])
  .map((arg) => /^--entrypoints\.([a-z]+)\.address=:(\d+)$/.exec(arg))
  .filter((match): match is RegExpExecArray => match !== null)
  .map(([, name, port]) => {
    const published = proxy.ports?.find((mapping) => mapping.endsWith(`:${port}`));
    return { name, port, published, loopbackOnly: published?.startsWith('127.0.0.1:') ?? false };
  });
const publicEntryPoints = entryPoints.filter((e) => e.published && !e.loopbackOnly).map((e) => e.name);

/** Every router the services' labels declare: its entry points, rule, TLS and the service it serves. */
const routers = Object.entries(services).flatMap(([serviceName, service]) => {
  const labels = service.labels ?? {};
  const names = new Set(
    Object.keys(labels).flatMap((key) => /^traefik\.http\.routers\.([^.]+)\./.exec(key)?.[1] ?? []),
  );
  return [...names].map((name) => ({
    serviceName,
    entryPoints: labels[`traefik.http.routers.${name}.entrypoints`].split(','),
    rule: labels[`traefik.http.routers.${name}.rule`],
    tls: labels[`traefik.http.routers.${name}.tls`] === 'true',
  }));
});

/**
 * Evaluates a Traefik rule made of `Path`, `PathPrefix`, `!`, `&&`, `||` and parentheses for a
 * request path (what the labels here use; anything else fails the test).
 */
function matches(rule: string, path: string): boolean {
  const tokens = rule.match(/Path(?:Prefix)?\(`[^`]*`\)|&&|\|\||!|\(|\)|\S/g) ?? [];
  let i = 0;
  const or = (): boolean => {
    let value = and();
    while (tokens[i] === '||') {
      i++;
      value = and() || value;
    }
    return value;
  };
  const and = (): boolean => {
    let value = unary();
    while (tokens[i] === '&&') {
      i++;
      value = unary() && value;
    }
    return value;
  };
  const unary = (): boolean => {
    const token = tokens[i++];
    if (token === '!') return !unary();
    if (token === '(') {
      const value = or();
      if (tokens[i++] !== ')') throw new Error(`unbalanced rule: ${rule}`);
      return value;
    }
    const matcher = /^(Path|PathPrefix)\(`([^`]*)`\)$/.exec(token ?? '');
    if (!matcher) throw new Error(`unknown matcher ${token} in ${rule}`);
    return matcher[1] === 'Path' ? path === matcher[2] : path.startsWith(matcher[2]);
  };
  const value = or();
  if (i !== tokens.length) throw new Error(`unparsed rule: ${rule}`);
  return value;
}

const servedOn = (entryPoint: string, path: string) =>
  routers.filter((r) => r.entryPoints.includes(entryPoint) && matches(r.rule, path)).map((r) => r.serviceName);

describe('docker-compose.yml', () => {
  it('parses, with the stores, one projector, the replicas and the proxy', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'eventstoredb', 'mongodb', 'projector', 'proxy', 'redis']);
  });

  it('pins every image, and the base images of the service image, to an exact version', () => {
    const images = Object.values(services).flatMap((service) => service.image ?? []);
    expect(images).toHaveLength(4);
    const dockerfiles = new Set(appServices.map((name) => services[name].build?.dockerfile));
    const bases = [...dockerfiles].flatMap((file) =>
      readFileSync(join(ROOT, file!), 'utf8')
        .split('\n')
        .flatMap((line) => /^FROM\s+(\S+)/i.exec(line)?.[1] ?? []),
    );
    expect(bases.length).toBeGreaterThan(0);
    for (const image of [...images, ...bases])
      expect({ image, pinned: isPinned(image) }).toEqual({ image, pinned: true });
    expect(['mongo:7', 'redis:7-alpine', 'traefik:v3.6', 'node:24-bookworm', 'x:latest', 'x'].some(isPinned)).toBe(
      false,
    );
  });

  it('puts the operator CLI on the service image as the workspace-ops command, as package.json names it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    const dockerfile = readFileSync(join(ROOT, 'docker/api.Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`chmod +x ${pkg.bin['workspace-ops']}`);
    expect(dockerfile).toContain(`ln -s /app/${pkg.bin['workspace-ops']} /usr/local/bin/workspace-ops`);
  });

  it('publishes ports on the proxy alone', () => {
    expect(Object.keys(services).filter((name) => services[name].ports !== undefined)).toEqual(['proxy']);
  });

  it('health-checks every service, and every service process on /ready', () => {
    for (const [name, service] of Object.entries(services))
      expect({ name, test: service.healthcheck?.test }).toEqual({ name, test: expect.any(Array) });
    for (const name of appServices) {
      expect(services[name].healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${env(name).PORT}/ready`);
    }
  });

  it('keeps the stores on an internal network only, each with a password where its image takes one', () => {
    for (const name of STORES) {
      const networks = services[name].networks ?? [];
      expect(networks.length).toBeGreaterThan(0);
      for (const network of networks)
        expect({ name, network, internal: compose.networks[network]?.internal }).toEqual({
          name,
          network,
          internal: true,
        });
    }
    // The service processes reach the stores there, and the proxy (and the outside) elsewhere.
    for (const name of appServices) expect(services[name].networks).toEqual(expect.arrayContaining(['data', 'edge']));
    expect(compose.networks.edge?.internal).toBeFalsy();

    // Passwords come from the environment (.env, made by scripts/compose-secrets.sh), never from this file.
    const mongo = services.mongodb;
    expect(env('mongodb').MONGO_INITDB_ROOT_PASSWORD).toMatch(/^\$\{MONGODB_ROOT_PASSWORD:\?/);
    expect(mongo.entrypoint?.join(' ')).toMatch(/--replSet rs0 .*--keyFile \/etc\/mongodb-keyfile/);
    expect(mongo.secrets).toEqual(['mongodb_keyfile']);
    expect(mongo.healthcheck?.test.join(' ')).toContain('--authenticationDatabase admin');
    expect(env('redis').REDISCLI_AUTH).toMatch(/^\$\{REDIS_PASSWORD:\?/);
    expect(services.redis.command?.join(' ')).toContain('--requirepass');
    expect(env('projector').MONGODB_URL).toMatch(
      /^mongodb:\/\/wos:\$\{MONGODB_SERVICE_PASSWORD\}@mongodb:27017\/\w+\?/,
    );
    expect(env('projector').REDIS_URL).toBe('redis://:${REDIS_PASSWORD}@redis:6379');
    // The files the secrets come from are never committed.
    const ignored = readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['.env', 'docker/secrets/', 'docker/certs/']));
    expect(compose.secrets.mongodb_keyfile.file).toMatch(/^\.\/docker\/secrets\//);
  });

  it('gives every service process a configuration the service accepts, trusting the proxy for client addresses', () => {
    for (const name of appServices) {
      const values = Object.fromEntries(Object.entries(env(name)).map(([key, value]) => [key, interpolated(value)]));
      const config = loadConfig(values);
      expect(config.trustProxy).toEqual({ hops: 1 });
      expect(config.mongodbUrl).toContain('authSource=admin');
      // Dashboard sign-in links lead to the public entry point, wherever the operator mints them.
      expect(config.publicUrl).toBe('https://localhost');
    }
  });

  it('terminates TLS at the proxy: HTTP redirects to HTTPS, and every entry point that serves routes is TLS', () => {
    expect(flag('entrypoints.web.http.redirections.entrypoint.to')).toBe('websecure');
    expect(flag('entrypoints.web.http.redirections.entrypoint.scheme')).toBe('https');
    expect(entryPoints.map((e) => [e.name, e.published])).toEqual([
      ['web', '80:80'],
      ['websecure', '443:443'],
      ['operators', '127.0.0.1:8443:8443'],
    ]);
    for (const name of ['websecure', 'operators']) expect(flag(`entrypoints.${name}.http.tls`)).toBe('true');
    for (const router of routers) {
      expect(router.tls).toBe(true);
      expect(router.entryPoints).not.toContain('web');
    }
    // The certificate: docker/traefik/tls.yml, mounted with the directory it names.
    expect(flag('providers.file.filename')).toBe('/etc/traefik/tls.yml');
    expect(proxy.volumes).toEqual(
      expect.arrayContaining(['./docker/traefik/tls.yml:/etc/traefik/tls.yml:ro', './docker/certs:/certs:ro']),
    );
    const tls = load(readFileSync(join(ROOT, 'docker/traefik/tls.yml'), 'utf8')) as {
      tls: { stores: { default: { defaultCertificate: { certFile: string; keyFile: string } } } };
    };
    expect(tls.tls.stores.default.defaultCertificate).toEqual({
      certFile: '/certs/tls.crt',
      keyFile: '/certs/tls.key',
    });
  });

  it('serves the API on the public entry point, and the operator API, metrics and docs only on the loopback one', () => {
    expect(publicEntryPoints).toEqual(['web', 'websecure']);
    const operatorPaths = [
      '/v1/admin/workspaces',
      '/v1/admin/projections/rebuild',
      '/metrics',
      '/docs',
      '/docs/swagger-ui.css',
    ];
    for (const entryPoint of publicEntryPoints) {
      for (const path of operatorPaths)
        expect({ entryPoint, path, to: servedOn(entryPoint, path) }).toEqual({ entryPoint, path, to: [] });
    }
    for (const path of ['/v1/projects', '/v1/projects/prj_1/jobs', '/health', '/ready', '/openapi.json'])
      expect(servedOn('websecure', path)).toEqual(['api']);
    // The operators' entry point leads to the projector: rebuilds and verifications run there.
    for (const path of operatorPaths) expect(servedOn('operators', path)).toEqual(['projector']);
  });

  it('runs one projector and a scalable api service with no fixed host port', () => {
    expect(appServices.filter((name) => env(name).PROJECTIONS === 'inline')).toEqual(['projector']);
    expect(appServices.filter((name) => env(name).PROJECTIONS === 'external')).toEqual(['api']);
    expect(services.api.ports).toBeUndefined();
    expect(services.api.expose).toEqual([String(env('api').PORT)]);
  });

  it('puts an official-image reverse proxy in front of the replicas, routing only to those passing /ready', () => {
    expect(proxy.image).toMatch(/^traefik:v3\.(6\.([1-9]|\d\d)|[7-9]\.|\d\d\.)/); // official image, Docker Engine 29-capable
    expect(proxy.command).toEqual(
      expect.arrayContaining(['--providers.docker=true', '--providers.docker.exposedbydefault=false']),
    );
    // Traefik reaches the services on the network it shares with them.
    expect(flag('providers.docker.network')).toBe(compose.networks.edge?.name);
    expect(proxy.networks).toEqual(['edge']);
    expect(proxy.volumes).toContain('/var/run/docker.sock:/var/run/docker.sock:ro');
    expect(proxy.healthcheck?.test).toEqual(['CMD', 'traefik', 'healthcheck', '--ping']);
    expect(proxy.command).toContain('--ping=true');
    const labels = services.api.labels ?? {};
    expect(labels['traefik.enable']).toBe('true');
    expect(labels['traefik.http.services.api.loadbalancer.server.port']).toBe(String(env('api').PORT));
    expect(labels['traefik.http.services.api.loadbalancer.healthcheck.path']).toBe('/ready');
  });

  it('shares one DATA_DIR volume between every process, and keeps subject keys out of MongoDB', () => {
    const mounts = appServices.map((name) => services[name].volumes?.find((v) => v.endsWith(`:${env(name).DATA_DIR}`)));
    expect(new Set(mounts).size).toBe(1);
    expect(mounts[0]).toBeDefined();
    for (const name of appServices) {
      if (env(name).READ_STORE === 'mongodb') expect(env(name).SUBJECT_KEY_STORE).toBe('sqlite');
    }
  });

  it("mounts the event store's volumes where its image keeps data and logs", () => {
    const store = services.eventstoredb;
    const root = store.image!.startsWith('eventstore/eventstore:') ? 'eventstore' : 'kurrentdb';
    expect(store.image).toMatch(
      /^(eventstore\/eventstore|kurrentplatform\/kurrentdb|docker\.kurrent\.io\/.*\/kurrentdb):/,
    );
    const targets = (store.volumes ?? []).map((v) => v.split(':')[1]);
    expect(targets).toEqual(expect.arrayContaining([`/var/lib/${root}`, `/var/log/${root}`]));
    const prefix = root === 'eventstore' ? 'EVENTSTORE_' : 'KURRENTDB_';
    expect(Object.keys(store.environment ?? {}).every((key) => key.startsWith(prefix))).toBe(true);
  });
});

describe("docker-compose.test.yml (the contract suites' servers)", () => {
  const test = load(readFileSync(join(ROOT, 'docker-compose.test.yml'), 'utf8')) as {
    services: Record<string, Service>;
  };

  it('runs the two servers pinned and health-checked, published on loopback only', () => {
    expect(Object.keys(test.services).sort()).toEqual(['eventstoredb', 'mongodb']);
    for (const [name, service] of Object.entries(test.services)) {
      expect({ name, pinned: isPinned(service.image!) }).toEqual({ name, pinned: true });
      expect(service.image).toBe(services[name].image);
      expect(service.healthcheck?.test).toEqual(expect.any(Array));
      for (const mapping of service.ports ?? []) expect(mapping).toMatch(/^127\.0\.0\.1:/);
    }
  });
});
