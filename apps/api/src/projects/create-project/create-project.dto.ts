import type { Status } from '@app/domain';
import { OnCreate } from '../project-field-rules';

/**
 * POST /projects (docs/api.md, Projects). Each field's rules are declared once, in PROJECT_FIELDS
 * (../project-field-rules.ts); fields in the order the API reference lists its messages.
 */
export class CreateProjectDto {
  @OnCreate('name') name: string = undefined as never;
  @OnCreate('start_date') start_date: string = undefined as never;
  @OnCreate('end_date') end_date?: string | null = undefined;
  @OnCreate('description') description: string = undefined as never;
  @OnCreate('status') status: Status = undefined as never;
  @OnCreate('other_status_reason') other_status_reason?: string = undefined;
  @OnCreate('external_id') external_id?: string | null = undefined;
}
