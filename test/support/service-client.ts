import { RawHttpClient, RawRequest, RawResponse } from './raw-http';

export interface Tenant {
  workspaceId: string;
  fullKey: string;
  fullKeyId: string;
  readKey: string;
  readKeyId: string;
}

/**
 * The operator's and the API consumer's view of a running service (a ServiceProcess or a TestApp
 * base URL): raw requests plus the provisioning the dashboard stands in for. Every credential it
 * is handed back is reported to `onCredential`, so suites can look for leaks of each of them.
 */
export class ServiceClient {
  readonly http: RawHttpClient;

  constructor(
    readonly baseUrl: string,
    readonly adminToken: string,
    private readonly onCredential: (label: string, value: string, kind: 'api_key' | 'webhook_secret') => void = () =>
      undefined,
  ) {
    this.http = new RawHttpClient(baseUrl);
  }

  request<T = any>(req: RawRequest): Promise<RawResponse<T>> {
    return this.http.request<T>(req);
  }

  call<T = any>(
    method: string,
    path: string,
    token: string | undefined,
    json?: unknown,
    headers?: Record<string, string>,
  ) {
    return this.http.request<T>({ method, path, token, json, headers });
  }

  admin<T = any>(method: string, path: string, json?: unknown) {
    return this.http.request<T>({ method, path: `/v1/admin${path}`, token: this.adminToken, json });
  }

  async expectAdmin<T = any>(method: string, path: string, json: unknown, status: number): Promise<T> {
    const res = await this.admin<T>(method, path, json);
    if (res.status !== status)
      throw new Error(`${method} /v1/admin${path}: expected ${status}, got ${res.status} ${res.text}`);
    return res.body;
  }

  async createKey(
    workspaceId: string,
    scope: 'full_access' | 'read_only',
    name = scope === 'read_only' ? 'Reporter' : 'Ops bot',
  ) {
    const key = await this.expectAdmin<{ id: string; key: string }>(
      'POST',
      `/workspaces/${workspaceId}/api-keys`,
      { name, scope },
      201,
    );
    this.onCredential(`api key ${key.id}`, key.key, 'api_key');
    return key;
  }

  /** A workspace on the given plan with one full-access and one read-only key. */
  async provision(options: { name?: string; plan?: string; projectLimit?: number | null } = {}): Promise<Tenant> {
    const ws = await this.expectAdmin<{ id: string }>(
      'POST',
      '/workspaces',
      {
        name: options.name ?? 'Acme Aerial',
        plan: options.plan ?? 'enterprise',
        ...(options.projectLimit !== undefined ? { project_limit: options.projectLimit } : {}),
      },
      201,
    );
    const full = await this.createKey(ws.id, 'full_access');
    const read = await this.createKey(ws.id, 'read_only');
    return { workspaceId: ws.id, fullKey: full.key, fullKeyId: full.id, readKey: read.key, readKeyId: read.id };
  }

  async addMember(workspaceId: string, email: string, role: string): Promise<string> {
    const body = await this.expectAdmin<{ id: string }>(
      'POST',
      `/workspaces/${workspaceId}/members`,
      { email, role, first_name: email.split('@')[0] },
      201,
    );
    return body.id;
  }

  /** Creates a webhook subscription and reports its secret; resolves with the create response. */
  async createWebhook(token: string, body: { name: string; url: string; event_types: string[] }) {
    const res = await this.call<{ id: string; secret: string }>('POST', '/v1/webhooks', token, body);
    if (res.status !== 201) throw new Error(`POST /v1/webhooks: expected 201, got ${res.status} ${res.text}`);
    this.onCredential(`webhook secret ${res.body.id}`, res.body.secret, 'webhook_secret');
    return res.body;
  }

  /** Every item of a paginated list (docs/api.md, Conventions: `cursor` until null), bounded. */
  async listAll<T = any>(path: string, token: string, itemsKey: string, maxPages = 10_000): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < maxPages; page++) {
      const sep = path.includes('?') ? '&' : '?';
      const res: RawResponse = await this.call(
        'GET',
        cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path,
        token,
      );
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
      items.push(...(res.body[itemsKey] as T[]));
      cursor = res.body.cursor;
      if (!cursor) return items;
    }
    throw new Error(`GET ${path}: more than ${maxPages} pages`);
  }

  close(): void {
    this.http.close();
  }
}
