import { Actor } from '@app/domain';
import { dashboardAssets } from './dashboard-files';

/** Who is signed in, as the pages show them, with the session's CSRF token for their forms. */
export interface SignedInView {
  member: {
    id: string;
    role: string;
    roleLabel: string;
    displayName: string;
    workspaceId: string;
    workspaceName: string;
    /** Whether the role may read the audit trail (the navigation offers it only then). */
    mayViewAudit: boolean;
  };
  csrf: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on a dashboard request once its session is resolved (pages and error pages read it). */
    dashboard?: SignedInView;
  }
}

export const ROLE_LABELS: Record<string, string> = {
  root: 'Root',
  project_manager: 'Project manager',
  ops_lead: 'Ops lead',
  pilot: 'Pilot',
  client: 'Client',
};

export const SCOPE_LABELS: Record<string, string> = { read_only: 'Read only', full_access: 'Full access' };
export const STATUS_LABELS: Record<string, string> = { active: 'Active', inactive: 'Inactive', invited: 'Invited' };

/** What the layout needs on every page. */
export function layoutData(title: string, signedIn: SignedInView | undefined, nav?: string) {
  return {
    title,
    nav: nav ?? null,
    assets: dashboardAssets().urls,
    member: signedIn?.member ?? null,
    csrf: signedIn?.csrf ?? '',
  };
}

/** A time as pages show it: minutes, in UTC, with the machine-readable form for `<time>`. */
export function timeView(ms: number): { iso: string; text: string } {
  const iso = new Date(ms).toISOString();
  return { iso, text: `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` };
}

/** Who made a change, in words; members by name where the page knows it. */
export function actorText(actor: Actor | null, memberNames: ReadonlyMap<string, string>): string {
  if (!actor) return 'Unknown';
  switch (actor.type) {
    case 'operator':
      return 'Operator';
    case 'api_key':
      return `API key “${actor.name}”`;
    case 'member':
      return memberNames.get(actor.id) ?? `Member ${actor.id}`;
  }
}
