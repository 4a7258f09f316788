import { MemberRole } from '@app/domain';

/**
 * What each role may do in the dashboard (docs/dashboard.md, Roles). Every dashboard route names
 * the permission it needs and the edge checks it on every request, against the member's role as
 * the read models have it at that moment.
 */
export const DASHBOARD_PERMISSIONS = {
  /** See the workspace's API keys (never their secrets). */
  view_api_keys: ['root', 'project_manager', 'ops_lead', 'pilot', 'client'],
  /** Create and deactivate API keys. */
  manage_api_keys: ['root', 'project_manager'],
  /** See the webhook subscriptions and their deliveries (never a signing secret). */
  view_webhooks: ['root', 'project_manager', 'ops_lead', 'pilot', 'client'],
  /**
   * Create, edit, pause, resume, delete a subscription and rotate its secret; send a test event,
   * resend a delivery, recover deliveries.
   */
  manage_webhooks: ['root', 'project_manager'],
  /** See the team: members, roles and statuses. */
  view_team: ['root', 'project_manager', 'ops_lead', 'pilot', 'client'],
  /** See the projects and their jobs, each with its timeline (read only: the API changes them). */
  view_projects: ['root', 'project_manager', 'ops_lead', 'pilot', 'client'],
  /** See the workspace's status display names. */
  view_status_labels: ['root', 'project_manager', 'ops_lead', 'pilot', 'client'],
  /** Change the status display names (the API keeps answering the predefined values). */
  manage_status_labels: ['root', 'project_manager'],
  /**
   * Read the workspace's audit trail and export it: every recorded change, with who made it. The
   * roles that run the workspace; pilots and clients see their work, not everyone's changes.
   */
  view_audit: ['root', 'project_manager', 'ops_lead'],
} as const satisfies Record<string, readonly MemberRole[]>;

export type DashboardPermission = keyof typeof DASHBOARD_PERMISSIONS;

export function mayDo(role: string, permission: DashboardPermission): boolean {
  return (DASHBOARD_PERMISSIONS[permission] as readonly string[]).includes(role);
}
