export * from './ports';
export * from './shared/system-clock';
export * from './shared/time-ordered-ids';
export * from './shared/rate-limit-policy';
export * from './shared/command-context';
export * from './shared/event-sourced-repository';
export * from './shared/upcasting-event-store';
export * from './shared/pagination';
export * from './shared/tenant';
export * from './shared/own-field';
export * from './shared/drop-oldest';
export * from './projections/projector';
export * from './projections/projection-engine';
export * from './projections/event-store-stamp';
export * from './workspaces/api-key-authenticator';
export * from './workspaces/workspace.projector';
export * from './workspaces/create-workspace/create-workspace.command';
export * from './workspaces/create-workspace/create-workspace.handler';
export * from './workspaces/update-workspace/update-workspace.command';
export * from './workspaces/update-workspace/update-workspace.handler';
export * from './workspaces/add-member/add-member.command';
export * from './workspaces/add-member/add-member.handler';
export * from './workspaces/create-api-key/create-api-key.command';
export * from './workspaces/create-api-key/create-api-key.handler';
export * from './workspaces/deactivate-api-key/deactivate-api-key.command';
export * from './workspaces/deactivate-api-key/deactivate-api-key.handler';
export * from './workspaces/erase-member/erase-member.command';
export * from './workspaces/erase-member/erase-member.handler';
export * from './workspaces/list-workspaces/list-workspaces.query';
export * from './workspaces/list-workspaces/list-workspaces.handler';
export * from './workspaces/get-workspace/get-workspace.query';
export * from './workspaces/get-workspace/get-workspace.handler';
export * from './workspaces/change-status-labels/change-status-labels.command';
export * from './workspaces/change-status-labels/change-status-labels.handler';
export * from './workspaces/get-status-labels/get-status-labels.query';
export * from './workspaces/get-status-labels/get-status-labels.handler';
export * from './privacy/personal-data-vault';
export * from './operators/operator-credentials';
export * from './projects/project.projector';
export * from './projects/create-project/create-project.command';
export * from './projects/create-project/create-project.handler';
export * from './projects/update-project/update-project.command';
export * from './projects/update-project/update-project.handler';
export * from './projects/archive-project/archive-project.command';
export * from './projects/archive-project/archive-project.handler';
export * from './projects/delete-project/delete-project.command';
export * from './projects/delete-project/delete-project.handler';
export * from './projects/list-projects/list-projects.query';
export * from './projects/list-projects/list-projects.handler';
export * from './projects/get-project/get-project.query';
export * from './projects/get-project/get-project.handler';
export * from './projects/get-project-as-of/get-project-as-of.query';
export * from './projects/get-project-as-of/get-project-as-of.handler';
export * from './history/history-entry';
export * from './history/audit.projector';
export * from './history/get-stream-history/get-stream-history.query';
export * from './history/get-stream-history/get-stream-history.handler';
export * from './history/list-workspace-events/list-workspace-events.query';
export * from './history/list-workspace-events/list-workspace-events.handler';
export * from './history/list-audit-events/list-audit-events.query';
export * from './history/list-audit-events/list-audit-events.handler';
export * from './history/get-resource-timeline/get-resource-timeline.query';
export * from './history/get-resource-timeline/get-resource-timeline.handler';

import { AddMemberHandler } from './workspaces/add-member/add-member.handler';
import { CreateApiKeyHandler } from './workspaces/create-api-key/create-api-key.handler';
import { CreateWorkspaceHandler } from './workspaces/create-workspace/create-workspace.handler';
import { DeactivateApiKeyHandler } from './workspaces/deactivate-api-key/deactivate-api-key.handler';
import { EraseMemberHandler } from './workspaces/erase-member/erase-member.handler';
import { UpdateWorkspaceHandler } from './workspaces/update-workspace/update-workspace.handler';
import { ListWorkspacesHandler } from './workspaces/list-workspaces/list-workspaces.handler';
import { GetWorkspaceHandler } from './workspaces/get-workspace/get-workspace.handler';
import { CreateProjectHandler } from './projects/create-project/create-project.handler';
import { UpdateProjectHandler } from './projects/update-project/update-project.handler';
import { ArchiveProjectHandler } from './projects/archive-project/archive-project.handler';
import { DeleteProjectHandler } from './projects/delete-project/delete-project.handler';
import { ListProjectsHandler } from './projects/list-projects/list-projects.handler';
import { GetProjectHandler } from './projects/get-project/get-project.handler';
import { GetProjectAsOfHandler } from './projects/get-project-as-of/get-project-as-of.handler';

/** Everything the composition root registers, by bounded context. */
export const WORKSPACE_HANDLERS = [
  CreateWorkspaceHandler,
  UpdateWorkspaceHandler,
  AddMemberHandler,
  CreateApiKeyHandler,
  DeactivateApiKeyHandler,
  EraseMemberHandler,
  ListWorkspacesHandler,
  GetWorkspaceHandler,
];
export const PROJECT_HANDLERS = [
  CreateProjectHandler,
  UpdateProjectHandler,
  ArchiveProjectHandler,
  DeleteProjectHandler,
  ListProjectsHandler,
  GetProjectHandler,
  GetProjectAsOfHandler,
];
export * from './projections/all-projectors';
export * from './projections/projection-maintenance';
export * from './projections/operator-checks';
export * from './projections/get-projection-status/get-projection-status.query';
export * from './projections/list-dead-letters/list-dead-letters.query';
export * from './projections/retry-dead-letter/retry-dead-letter.command';
export * from './projections/skip-dead-letter/skip-dead-letter.command';
export * from './projections/rebuild-projections/rebuild-projections.command';
export * from './projections/verify-read-models/verify-read-models.command';
export * from './history/export-events/export-events.query';
export { OPERATIONS_HANDLERS } from './projections/operations-handlers';
export * from './jobs/job.projector';
export * from './jobs/job-access';
export * from './jobs/create-job/create-job.command';
export * from './jobs/create-job/create-job.handler';
export * from './jobs/update-job/update-job.command';
export * from './jobs/update-job/update-job.handler';
export * from './jobs/delete-job/delete-job.command';
export * from './jobs/delete-job/delete-job.handler';
export * from './jobs/assign-pilots/assign-pilots.command';
export * from './jobs/assign-pilots/assign-pilots.handler';
export * from './jobs/unassign-pilots/unassign-pilots.command';
export * from './jobs/unassign-pilots/unassign-pilots.handler';
export * from './jobs/get-job/get-job.query';
export * from './jobs/get-job/get-job.handler';
export * from './jobs/list-jobs/list-jobs.query';
export * from './jobs/list-jobs/list-jobs.handler';
export * from './jobs/list-job-occurrences/list-job-occurrences.query';
export * from './jobs/list-job-occurrences/list-job-occurrences.handler';
export * from './jobs/get-job-as-of/get-job-as-of.query';
export * from './jobs/get-job-as-of/get-job-as-of.handler';
export * from './jobs/list-job-occurrences/assigned-pilots';
export * from './history/state-as-of';
export * from './job-types/job-type.projector';
export * from './job-types/job-type-lookup';
export * from './job-types/create-job-type/create-job-type.command';
export * from './job-types/create-job-type/create-job-type.handler';
export * from './job-types/delete-job-type/delete-job-type.command';
export * from './job-types/delete-job-type/delete-job-type.handler';
export * from './job-types/list-job-types/list-job-types.query';
export * from './job-types/list-job-types/list-job-types.handler';
export * from './team/team-member-view';
export * from './team/list-team/list-team.query';
export * from './team/list-team/list-team.handler';
export * from './team/get-team-member/get-team-member.query';
export * from './team/get-team-member/get-team-member.handler';
export * from './workspaces/api-key-usage-recorder';
export * from './workspaces/api-key-actors.projector';
export * from './workspaces/list-api-keys/list-api-keys.query';
export * from './workspaces/list-api-keys/list-api-keys.handler';
export * from './workspaces/api-key-daily-requests/api-key-daily-requests.query';
export * from './workspaces/api-key-daily-requests/api-key-daily-requests.handler';
export * from './workspaces/get-api-key/get-api-key.query';
export * from './workspaces/get-api-key/get-api-key.handler';
export * from './dashboard/dashboard-access';
export * from './dashboard/dashboard-roles';

import { CreateJobHandler } from './jobs/create-job/create-job.handler';
import { UpdateJobHandler } from './jobs/update-job/update-job.handler';
import { DeleteJobHandler } from './jobs/delete-job/delete-job.handler';
import { AssignPilotsHandler } from './jobs/assign-pilots/assign-pilots.handler';
import { UnassignPilotsHandler } from './jobs/unassign-pilots/unassign-pilots.handler';
import { GetJobHandler } from './jobs/get-job/get-job.handler';
import { ListJobsHandler } from './jobs/list-jobs/list-jobs.handler';
import { ListJobOccurrencesHandler } from './jobs/list-job-occurrences/list-job-occurrences.handler';
import { GetJobAsOfHandler } from './jobs/get-job-as-of/get-job-as-of.handler';
import { CreateJobTypeHandler } from './job-types/create-job-type/create-job-type.handler';
import { DeleteJobTypeHandler } from './job-types/delete-job-type/delete-job-type.handler';
import { ListJobTypesHandler } from './job-types/list-job-types/list-job-types.handler';
import { ListTeamHandler } from './team/list-team/list-team.handler';
import { GetTeamMemberHandler } from './team/get-team-member/get-team-member.handler';
import { GetStreamHistoryHandler } from './history/get-stream-history/get-stream-history.handler';
import { ListWorkspaceEventsHandler } from './history/list-workspace-events/list-workspace-events.handler';
import {
  ListAuditEventsHandler,
  ListRequestEventsHandler,
} from './history/list-audit-events/list-audit-events.handler';
import { GetResourceTimelineHandler } from './history/get-resource-timeline/get-resource-timeline.handler';

export const JOB_HANDLERS = [
  CreateJobHandler,
  UpdateJobHandler,
  DeleteJobHandler,
  AssignPilotsHandler,
  UnassignPilotsHandler,
  GetJobHandler,
  ListJobsHandler,
  ListJobOccurrencesHandler,
  GetJobAsOfHandler,
];
export const JOB_TYPE_HANDLERS = [CreateJobTypeHandler, DeleteJobTypeHandler, ListJobTypesHandler];
export const TEAM_HANDLERS = [ListTeamHandler, GetTeamMemberHandler];
export const HISTORY_HANDLERS = [
  GetStreamHistoryHandler,
  ListWorkspaceEventsHandler,
  ListAuditEventsHandler,
  ListRequestEventsHandler,
  GetResourceTimelineHandler,
];
export * from './webhooks';
export * from './projections/checkpoint-poller';
export * from './projects/slots/slot-ledger.projector';
export * from './projects/slots/slot-reconciler';
export * from './ledger/merkle';
export * from './ledger/ledger';
export * from './console/console-access';
