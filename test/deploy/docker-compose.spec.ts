import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * No Docker engine runs in CI, so `docker compose up --scale api=3` is checked by what it relies
 * on in docker-compose.yml: no fixed host port on the scaled service, a proxy in front routing on
 * /ready, one projector, shared files on one volume, and the event store's volumes where its image
 * keeps its data.
 */
// js-yaml is a devDependency; it ships no types of its own.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- no type declarations to import
const { load } = require('js-yaml') as { load: (text: string) => unknown };

interface Service {
  image?: string;
  build?: unknown;
  ports?: string[];
  expose?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  labels?: Record<string, string>;
  command?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}

const compose = load(readFileSync(join(__dirname, '../../docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
};
const services = compose.services;
const env = (name: string) => services[name].environment ?? {};
const appServices = Object.keys(services).filter((name) => services[name].build !== undefined);

describe('docker-compose.yml', () => {
  it('runs one projector and a scalable api service with no fixed host port', () => {
    expect(appServices.filter((name) => env(name).PROJECTIONS === 'inline')).toEqual(['projector']);
    expect(appServices.filter((name) => env(name).PROJECTIONS === 'external')).toEqual(['api']);
    expect(services.api.ports).toBeUndefined();
    expect(services.api.expose).toEqual([String(env('api').PORT)]);
  });

  it('health-checks every service process on /ready', () => {
    for (const name of appServices) {
      expect(services[name].healthcheck?.test.join(' ')).toContain(`http://127.0.0.1:${env(name).PORT}/ready`);
    }
  });

  it('puts an official-image reverse proxy in front of the replicas, routing only to those passing /ready', () => {
    const proxy = services.proxy;
    expect(proxy.image).toMatch(/^traefik:v3\.(6|[7-9]|\d\d)/); // official image, Docker Engine 29-capable
    expect(proxy.ports).toHaveLength(1);
    expect(proxy.command).toEqual(
      expect.arrayContaining(['--providers.docker=true', '--providers.docker.exposedbydefault=false']),
    );
    expect(proxy.volumes).toContain('/var/run/docker.sock:/var/run/docker.sock:ro');
    expect(proxy.healthcheck?.test).toEqual(['CMD', 'traefik', 'healthcheck', '--ping']);
    expect(proxy.command).toContain('--ping=true');
    const labels = services.api.labels ?? {};
    expect(labels['traefik.enable']).toBe('true');
    expect(labels['traefik.http.services.api.loadbalancer.server.port']).toBe(String(env('api').PORT));
    expect(labels['traefik.http.services.api.loadbalancer.healthcheck.path']).toBe('/ready');
    const entryPoint = labels['traefik.http.routers.api.entrypoints'];
    expect(proxy.command).toContain(`--entrypoints.${entryPoint}.address=:${proxy.ports![0].split(':').pop()}`);
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
