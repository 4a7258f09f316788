import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Headers of every dashboard response. The policy allows scripts, styles, images and the script's
 * requests (the console's live figures) from the service only, forms posted to it only, and no
 * framing: with no inline script or style anywhere, an injected tag could neither run nor restyle
 * the page.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const DASHBOARD_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Sign-in links carry their token in the query: no page passes its URL on.
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Pages are per member and may show a secret once: never stored by a cache. */
export const NO_STORE = 'no-store';

export const SESSION_COOKIE = 'dashboard_session';
export const SESSION_COOKIE_PATH = '/dashboard';

/** A session cookie of the browser front ends: the dashboard's, the console's. */
export interface SessionCookieSpec {
  name: string;
  path: string;
}

const DASHBOARD_COOKIE: SessionCookieSpec = { name: SESSION_COOKIE, path: SESSION_COOKIE_PATH };

/** A cookie as a request sends it (cookie header syntax of RFC 6265), if any. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The dashboard's session cookie as a request sends it, if any. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  return cookieOf(request, SESSION_COOKIE);
}

/**
 * A session cookie (the dashboard's unless `spec` names another): for its front end's paths only, never readable by scripts, never sent with a
 * request another site starts, and over TLS only when the request came over TLS (`request.protocol`
 * honours TRUST_PROXY's forwarded protocol).
 */
export function sessionCookie(
  request: FastifyRequest,
  value: string,
  maxAgeSeconds: number,
  spec: SessionCookieSpec = DASHBOARD_COOKIE,
): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${spec.name}=${value}; Path=${spec.path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * Whether a form post comes from the dashboard's own pages, as far as the browser says
 * (`Sec-Fetch-Site`, sent by every current browser): a post started by another site is refused
 * before anything else, the sign-in form included (no one signs a victim in to an attacker's session).
 * Clients that send no such header (scripts, older browsers) still need the CSRF token.
 */
export function crossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return typeof site === 'string' && site !== 'same-origin' && site !== 'none';
}

/** Sends an HTML page with the dashboard's headers. */
export function sendPage(reply: FastifyReply, status: number, html: string): void {
  void reply
    .code(status)
    .headers({ ...DASHBOARD_SECURITY_HEADERS, 'cache-control': NO_STORE })
    .type('text/html; charset=utf-8')
    .send(html);
}

/** A redirect after a form post (303: the next request is a GET), with the dashboard's headers. */
export function seeOther(reply: FastifyReply, location: string): void {
  void reply
    .code(303)
    .headers({ ...DASHBOARD_SECURITY_HEADERS, 'cache-control': NO_STORE, location })
    .send();
}
