import { isPredefinedJobType } from '@app/domain';
import { ReadModelStore } from '../ports/read-model.port';
import { JOB_TYPES } from './job-type.projector';

/**
 * A job's `type` must be a job type of its workspace (docs/api.md, Jobs): a predefined one, or a live custom
 * type of that same workspace — another workspace's custom type is as unknown as a made-up id.
 */
export async function isJobTypeOfWorkspace(
  read: ReadModelStore,
  workspaceId: string,
  typeId: string,
): Promise<boolean> {
  if (isPredefinedJobType(typeId)) return true;
  const found = await read.get(JOB_TYPES, typeId);
  return found !== null && found.workspaceId === workspaceId;
}
