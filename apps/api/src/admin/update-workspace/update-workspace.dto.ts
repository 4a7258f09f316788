import { PartialType, PickType } from '@nestjs/swagger';
import { CreateWorkspaceDto } from '../create-workspace/create-workspace.dto';

/**
 * PATCH /admin/workspaces/{workspaceId}: create's `plan` and `project_limit`, with create's checks,
 * each optional; at least one of the two (checked by the controller). A `plan` of null is
 * refused like any wrong plan (`skipNullProperties: false`); a `project_limit` of null means
 * unlimited, as on create.
 */
export class UpdateWorkspaceDto extends PartialType(PickType(CreateWorkspaceDto, ['plan', 'project_limit']), {
  skipNullProperties: false,
}) {}
