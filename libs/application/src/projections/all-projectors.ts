import { auditProjector } from '../history/audit.projector';
import { jobTypeProjector } from '../job-types/job-type.projector';
import { jobProjector } from '../jobs/job.projector';
import { projectProjector } from '../projects/project.projector';
import { workspaceProjector } from '../workspaces/workspace.projector';
import { apiKeyActorsProjector } from '../workspaces/api-key-actors.projector';
import { webhookProjector } from '../webhooks/webhook.projector';
import { slotLedgerProjector } from '../projects/slots/slot-ledger.projector';
import { Projector } from './projector';

/** Every projection the service maintains; the projection engine runs them all. Add new ones here. */
export const ALL_PROJECTORS: Projector[] = [
  workspaceProjector,
  projectProjector,
  auditProjector,
  jobProjector,
  jobTypeProjector,
  webhookProjector,
  slotLedgerProjector,
  apiKeyActorsProjector,
];
