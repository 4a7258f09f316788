import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString } from 'class-validator';
import {
  OTHER_STATUS_REASON_LENGTH,
  OTHER_STATUS_REASON_LIMITS as REASON,
  OTHER_STATUS_REASON_REQUIRED,
  PROJECT_LIMITS as L,
  PROJECT_MESSAGES as M,
  Status,
  STATUS_MESSAGE,
  STATUS_VALUES,
} from '@app/domain';
import { CharLength, IfStatusIsOtherOrGiven, IsIsoDate, MUST_BE_STRING } from '../../http/validators';
import { orNull } from '../../openapi/schemas/common.schema';
import { PROJECT_FIELD as F, STATUS_FIELD } from '../../openapi/schemas/projects.schema';

/**
 * POST /projects (docs/api.md, Projects). Fields in the order the API reference lists their
 * messages, which is the order their failures are reported in (http/validation.ts); each field's
 * checks run bottom-up (http/validators.ts).
 */
export class CreateProjectDto {
  @ApiProperty(F.name)
  @CharLength(L.name.min, L.name.max, M.nameLength)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: M.nameRequired })
  name: string;

  @ApiProperty(F.start_date)
  @IsIsoDate(M.startDateFormat)
  @IsDefined({ message: M.startDateRequired })
  start_date: string;

  @ApiPropertyOptional(orNull(F.end_date))
  @IsIsoDate(M.endDateFormat)
  @IsOptional()
  end_date?: string | null;

  /** Required, but may be empty on create: the API reference bounds it to 1..1000 only on update. */
  @ApiProperty({ ...F.description, description: 'Required; may be empty on create' })
  @CharLength(L.description.createMin, L.description.max, M.descriptionLength)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: M.descriptionRequired })
  description: string;

  @ApiProperty(STATUS_FIELD)
  @IsIn(STATUS_VALUES, { message: STATUS_MESSAGE })
  status: Status;

  @ApiPropertyOptional(F.other_status_reason)
  @CharLength(REASON.min, REASON.max, OTHER_STATUS_REASON_LENGTH)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: OTHER_STATUS_REASON_REQUIRED })
  @IfStatusIsOtherOrGiven()
  other_status_reason?: string;

  @ApiPropertyOptional(orNull(F.external_id))
  @CharLength(0, L.externalId, M.externalIdLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  external_id?: string | null;
}
