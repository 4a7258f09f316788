import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, CommandContext, ConsoleAccess, ConsoleOperator, OperatorRole } from '@app/application';
import { AUTH_FAILURES } from '../http/errors';
import { dashboardAssets } from '../dashboard/dashboard-files';
import { cookieOf, crossSite, sendPage, SessionCookieSpec } from '../dashboard/dashboard-http';
import { field } from '../dashboard/dashboard-pages';
import { DashboardProblem } from '../dashboard/dashboard-problem';

export const CONSOLE_COOKIE: SessionCookieSpec = { name: 'console_session', path: '/console' };

/** The console's screens, in the order of its navigation: a screen added here appears in every page's nav. */
export const CONSOLE_NAV: readonly { id: string; href: string; label: string }[] = [
  { id: 'workspaces', href: '/console/workspaces', label: 'Workspaces' },
  { id: 'projections', href: '/console/projections', label: 'Projections' },
  { id: 'deliveries', href: '/console/deliveries', label: 'Deliveries' },
  { id: 'topology', href: '/console/topology', label: 'Topology' },
  { id: 'events', href: '/console/events', label: 'Events' },
];

export const ROLE_TEXT: Record<OperatorRole, string> = { operator: 'Operator', auditor: 'Auditor (read only)' };

/** Who is signed in, as the console's pages show them, with the session's CSRF token for their forms. */
export interface ConsoleView {
  name: string;
  role: OperatorRole;
  roleText: string;
  /** The signed-in role may change things (the pages show write controls only then). */
  mayWrite: boolean;
  csrf: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on a console request once its session is resolved (pages and error pages read it). */
    console?: ConsoleView;
  }
}

export const CONSOLE_SIGN_IN_REQUIRED = () =>
  new DashboardProblem(
    401,
    'Sign in required',
    'You are not signed in, or your session has ended. Sign in to continue.',
  );
export const CONSOLE_CSRF_REFUSED = () =>
  new DashboardProblem(
    403,
    'Request refused',
    'This form could not be accepted: it did not come from a page of this console or it has expired. Go back, reload the page and try again.',
  );
export const AUDITOR_REFUSED = () =>
  new DashboardProblem(403, 'Not allowed', 'Your role (auditor) may only read: this needs the operator role.');

/** An API key on the console (as a bearer token or typed into the sign-in form): refused as on the operator API. */
export const API_KEY_REFUSED = () =>
  new DashboardProblem(403, 'Request refused', `${AUTH_FAILURES.api_key_path_not_allowed} (api_key_path_not_allowed)`);

export const isApiKey = (value: unknown): boolean =>
  typeof value === 'string' && value.trim().startsWith(API_KEY_PREFIX);

/**
 * Refuses a console request that carries an API key as its bearer token, before anything else, as
 * the operator API does (`api_key_path_not_allowed`); any other bearer token is ignored here.
 */
@Injectable()
export class ConsoleApiKeyRefusal implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    if (typeof header === 'string' && isApiKey(header.replace(/^Bearer[ \t]+/i, ''))) throw API_KEY_REFUSED();
    return true;
  }
}

/** What the layout needs on every page. */
export function consoleLayout(title: string, view: ConsoleView | undefined, nav?: string) {
  return { title, nav: nav ?? null, navItems: CONSOLE_NAV, assets: dashboardAssets().urls, operator: view ?? null };
}

/** What a console route asks of its request: a form post (CSRF checked), the operator role. */
export interface ConsoleNeed {
  form?: boolean;
  write?: boolean;
}

/**
 * The steps every console screen shares: the signed-in operator with its role (re-read each
 * request), the command context of its changes, and rendering a page.
 */
@Injectable()
export class ConsolePages {
  constructor(readonly access: ConsoleAccess) {}

  sessionOf(request: FastifyRequest): string | undefined {
    return cookieOf(request, CONSOLE_COOKIE.name);
  }

  /**
   * The signed-in operator, or a refusal: 401 without a live console session, 403 for a form post
   * from elsewhere or without the session's CSRF token, 403 for an auditor on a write.
   */
  async signedIn(request: FastifyRequest, need: ConsoleNeed = {}): Promise<ConsoleOperator & { view: ConsoleView }> {
    if (need.form && crossSite(request)) throw CONSOLE_CSRF_REFUSED();
    const operator = await this.access.resume(this.sessionOf(request));
    if (!operator) throw CONSOLE_SIGN_IN_REQUIRED();
    const view: ConsoleView = {
      name: operator.name,
      role: operator.role,
      roleText: ROLE_TEXT[operator.role],
      mayWrite: operator.role === 'operator',
      csrf: this.access.csrfToken(operator.sessionId),
    };
    request.console = view;
    if (need.form && !this.access.csrfTokenMatches(operator.sessionId, field(request.body, '_csrf'))) {
      throw CONSOLE_CSRF_REFUSED();
    }
    if (need.write && !view.mayWrite) throw AUDITOR_REFUSED();
    return { ...operator, view };
  }

  /** The command context of an operator's change: the credential is the actor (ADMIN_TOKEN: the operator). */
  context(request: FastifyRequest, operator: ConsoleOperator): CommandContext {
    const requestId = String(request.id);
    return {
      actor: operator.credentialId ? { type: 'operator', id: operator.credentialId } : { type: 'operator' },
      workspaceId: null,
      requestId,
      causationId: requestId,
      consistency: { pending: [] },
    };
  }

  async page(reply: FastifyReply, status: number, template: string, data: object): Promise<void> {
    sendPage(reply, status, await reply.viewAsync(`console/${template}`, data));
  }
}
