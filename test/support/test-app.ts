import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp, CreateAppOptions } from '../../apps/api/src/bootstrap';
import { loadConfig } from '../../apps/api/src/config';
import { prepareDataDir } from '../../apps/api/src/data-dir';
import { lateBound } from './late-bound';

export const ADMIN_TOKEN = 'adm_test_token_for_e2e';

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/** The real service on a loopback port, with a fresh DATA_DIR, driven over real HTTP. */
export class TestApp {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly baseUrl: string,
    readonly dataDir: string,
    private readonly ownsDir: boolean,
  ) {}

  /** `appOptions` (e.g. shorter request timeouts) go to createApp as they are. */
  static async start(
    env: Record<string, string> = {},
    dataDir?: string,
    appOptions: CreateAppOptions = {},
  ): Promise<TestApp> {
    const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'wos-e2e-'));
    const { config } = prepareDataDir(loadConfig({ DATA_DIR: dir, ADMIN_TOKEN, LOG_LEVEL: 'silent', ...env }));
    // A short shutdown grace: a browser's spare connection (the Swagger UI test) ends at 2 s, not 10.
    const app = await createApp(config, {
      logger: false,
      ...appOptions,
      bounds: { shutdownGraceMs: 2_000, ...appOptions.bounds },
    });
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as { port: number };
    return new TestApp(app, `http://127.0.0.1:${address.port}`, dir, dataDir === undefined);
  }

  async stop(options: { keepData?: boolean } = {}) {
    await this.app.close();
    if (this.ownsDir && !options.keepData) rmSync(this.dataDir, { recursive: true, force: true });
  }

  async request<T = any>(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed as T, headers: response.headers, text };
  }

  admin<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>(method, `/v1/admin${path}`, { token: ADMIN_TOKEN, body, headers });
  }

  /**
   * A workspace on the given plan with one full-access and one read-only key. Each request holds
   * an Idempotency-Key, which the service never cuts short at its handler deadline: a suite that
   * sets a deadline of a few hundred milliseconds (Resource bounds) still gets its workspace on a
   * loaded machine, where a durable create can take longer (it failed CI once with a 503).
   */
  async provision(options: { plan?: string; projectLimit?: number | null; name?: string } = {}) {
    const create = async (path: string, body: Record<string, unknown>) => {
      const res = await this.admin('POST', path, body, { 'idempotency-key': randomUUID() });
      if (res.status !== 201) throw new Error(`provision failed: POST ${path}: ${res.status} ${res.text}`);
      return res;
    };
    const ws = await create('/workspaces', {
      name: options.name ?? 'Acme Aerial',
      plan: options.plan ?? 'enterprise',
      ...(options.projectLimit !== undefined ? { project_limit: options.projectLimit } : {}),
    });
    const full = await create(`/workspaces/${ws.body.id}/api-keys`, { name: 'Ops bot', scope: 'full_access' });
    const read = await create(`/workspaces/${ws.body.id}/api-keys`, { name: 'Reporter', scope: 'read_only' });
    return {
      workspaceId: ws.body.id as string,
      fullKey: full.body.key as string,
      fullKeyId: full.body.id as string,
      readKey: read.body.key as string,
      readKeyId: read.body.id as string,
    };
  }
}

/** The keys of a provisioned workspace (`TestApp.provision`). */
export type Keys = Awaited<ReturnType<TestApp['provision']>>;

/** Answers a value a `beforeAll` has set; before that (or after the tests), says so. */
function started<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('the service runs only while the tests of its describe do');
  return value;
}

/**
 * A service for the calling `describe`, started with `env` (and `appOptions`, as `TestApp.start`
 * takes them) before its tests and stopped after them. The answer stands for the running service.
 */
export function useTestApp(env: Record<string, string> = {}, appOptions: CreateAppOptions = {}): TestApp {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await TestApp.start(env, undefined, appOptions);
  });
  afterAll(() => t?.stop());
  return lateBound(() => started(t));
}

/** `useTestApp` with one provisioned workspace: `keys` stands for that workspace's keys. */
export function useProvisionedApp(env: Record<string, string> = {}): { t: TestApp; keys: Keys } {
  const t = useTestApp(env);
  let keys: Keys | undefined;
  beforeAll(async () => {
    keys = await t.provision();
  });
  return { t, keys: lateBound(() => started(keys)) };
}
