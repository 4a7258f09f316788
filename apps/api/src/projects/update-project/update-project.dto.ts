import type { Status } from '@app/domain';
import { OnUpdate } from '../project-field-rules';

/**
 * PATCH /projects/{id}: every field optional; only supplied fields change; null clears the nullable
 * ones. The rules are create's (PROJECT_FIELDS, ../project-field-rules.ts).
 */
export class UpdateProjectDto {
  @OnUpdate('name') name?: string = undefined;
  @OnUpdate('start_date') start_date?: string = undefined;
  @OnUpdate('end_date') end_date?: string | null = undefined;
  @OnUpdate('description') description?: string = undefined;
  @OnUpdate('status') status?: Status = undefined;
  @OnUpdate('other_status_reason') other_status_reason?: string = undefined;
  @OnUpdate('external_id') external_id?: string | null = undefined;
  @OnUpdate('laanc_number') laanc_number?: string | null = undefined;
}
