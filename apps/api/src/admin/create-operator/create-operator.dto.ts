import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OPERATOR_ROLES, OperatorRole } from '@app/application';
import { WORKSPACE_LIMITS as L } from '@app/domain';
import { Name } from '../admin-fields';

export const OPERATOR_ROLE_MESSAGE = `role must be one of: ${OPERATOR_ROLES.join(', ')}`;

/** POST /admin/operators. Each field's checks run bottom-up (http/validators.ts). */
export class CreateOperatorDto {
  @Name(L.apiKeyName, 'Night shift auditor')
  name: string;

  @ApiProperty({
    enum: [...OPERATOR_ROLES],
    description: '`operator`: everything; `auditor`: reads, exports, history, proofs and verifications only',
    example: 'auditor',
  })
  @IsIn(OPERATOR_ROLES, { message: OPERATOR_ROLE_MESSAGE })
  role: OperatorRole;
}
