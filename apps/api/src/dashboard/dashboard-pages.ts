import { Inject, Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CommandContext,
  DashboardAccess,
  DashboardPermission,
  DASHBOARD_SETTINGS,
  DashboardSettings,
  GetTeamMemberQuery,
  mayDo,
  TeamMember,
} from '@app/application';
import { crossSite, sendPage, sessionCookieOf } from './dashboard-http';
import { CSRF_REFUSED, NOT_ALLOWED, SIGN_IN_REQUIRED } from './dashboard-problem';
import { ROLE_LABELS, SignedInView } from './dashboard-view-data';

type Form = Record<string, unknown>;

/** The one value of a form field, or undefined (absent, or sent several times). */
export const field = (body: unknown, name: string): string | undefined => {
  const value = body && typeof body === 'object' ? (body as Form)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
};

/** Every string value of a form field sent any number of times (checkboxes). */
export const fieldValues = (body: unknown, name: string): string[] => {
  const raw = body && typeof body === 'object' ? (body as Form)[name] : undefined;
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return values.filter((v): v is string => typeof v === 'string');
};

/** A query parameter's one value, if it is a plain token (cursors). */
export const cursorOf = (raw: unknown): string | undefined =>
  typeof raw === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(raw) ? raw : undefined;

export function displayNameOf(member: TeamMember): string {
  return [member.first_name, member.last_name].filter(Boolean).join(' ') || member.email;
}

/** What a route asks of its request: a form post (CSRF checked), a permission, and what it does (for a refusal). */
export interface DashboardNeed {
  form?: boolean;
  permission?: DashboardPermission;
  doing?: string;
}

/**
 * The steps every dashboard screen shares: resolving the signed-in member with its permission,
 * the command context of the member's changes, the names of members shown on a page, and
 * rendering a page.
 */
@Injectable()
export class DashboardPages {
  constructor(
    readonly access: DashboardAccess,
    private readonly queries: QueryBus,
    @Inject(DASHBOARD_SETTINGS) readonly settings: DashboardSettings,
  ) {}

  /**
   * The signed-in member of this request, read for it, or a refusal: 401 without a live session,
   * 403 for a form post from elsewhere or without the session's CSRF token, 403 for a role without
   * the permission. Kept on the request for the page (and any error page) to show.
   */
  async signedIn(request: FastifyRequest, need: DashboardNeed): Promise<SignedInView> {
    if (need.form && crossSite(request)) throw CSRF_REFUSED();
    const sessionId = sessionCookieOf(request);
    const signedIn = await this.access.resume(sessionId);
    if (!signedIn) throw SIGN_IN_REQUIRED();
    const member = await this.queries
      .execute<GetTeamMemberQuery, TeamMember>(new GetTeamMemberQuery(signedIn.workspaceId, signedIn.memberId))
      .catch(() => null);
    const view: SignedInView = {
      member: {
        id: signedIn.memberId,
        role: signedIn.role,
        roleLabel: ROLE_LABELS[signedIn.role] ?? signedIn.role,
        displayName: member ? displayNameOf(member) : signedIn.memberId,
        workspaceId: signedIn.workspaceId,
        workspaceName: signedIn.workspaceName,
        mayViewAudit: mayDo(signedIn.role, 'view_audit'),
      },
      csrf: this.access.csrfToken(signedIn.sessionId),
    };
    request.dashboard = view;
    if (need.form && !this.access.csrfTokenMatches(signedIn.sessionId, field(request.body, '_csrf'))) {
      throw CSRF_REFUSED();
    }
    if (need.permission && !mayDo(signedIn.role, need.permission)) {
      throw NOT_ALLOWED(need.doing ?? 'see this page');
    }
    return view;
  }

  /** The command context of a member's change: the member is the actor, the session's workspace the tenant. */
  context(request: FastifyRequest, view: SignedInView): CommandContext {
    const requestId = String(request.id);
    return {
      actor: { type: 'member', id: view.member.id },
      workspaceId: view.member.workspaceId,
      requestId,
      causationId: requestId,
      consistency: { pending: [] },
    };
  }

  /** The display names of these members of the workspace; a member no longer found is left out. */
  async memberNames(workspaceId: string, memberIds: Iterable<string>): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    await Promise.all(
      [...new Set(memberIds)].map(async (id) => {
        const member = await this.queries
          .execute<GetTeamMemberQuery, TeamMember>(new GetTeamMemberQuery(workspaceId, id))
          .catch(() => null);
        if (member) names.set(id, displayNameOf(member));
      }),
    );
    return names;
  }

  async page(reply: FastifyReply, status: number, template: string, data: object): Promise<void> {
    sendPage(reply, status, await reply.viewAsync(template, data));
  }
}
