/** A console answer as the tests read it. */
export interface ConsolePage {
  status: number;
  headers: Headers;
  html: string;
}

/**
 * The operator console of the service at `baseUrl`, driven as a browser on its own pages drives
 * it: the session cookie, form posts marked same-origin, redirects not followed.
 */
export class ConsoleClient {
  constructor(readonly baseUrl: string) {}

  async page(
    method: 'GET' | 'POST',
    path: string,
    options: { cookie?: string; form?: Record<string, string> } = {},
  ): Promise<ConsolePage> {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = `console_session=${options.cookie}`;
    if (method === 'POST') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['sec-fetch-site'] = 'same-origin';
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.form ? new URLSearchParams(options.form).toString() : method === 'POST' ? '' : undefined,
      redirect: 'manual',
    });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  /** Signs in with a typed credential; the session cookie. */
  async signIn(token: string): Promise<string> {
    const posted = await this.page('POST', '/console/sign-in', { form: { token } });
    const cookie = /console_session=([^;]*)/.exec(posted.headers.get('set-cookie') ?? '')?.[1];
    if (posted.status !== 303 || !cookie) throw new Error(`console sign-in: ${posted.status} ${posted.html}`);
    return cookie;
  }
}
