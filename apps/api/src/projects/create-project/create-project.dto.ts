import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString } from 'class-validator';
import { PROJECT_LIMITS as L, PROJECT_MESSAGES as M, Status, STATUS_MESSAGE, STATUS_VALUES } from '@app/domain';
import { CharLength, IsIsoDate, MUST_BE_STRING } from '../../http/validators';
import { PROJECT_FIELD as F, STATUS_FIELD } from '../../openapi/schemas/projects.schema';
import { EndDate, ExternalId, NameChecks, OtherStatusReason } from '../project-fields';

/**
 * POST /projects (docs/api.md, Projects). Fields in the order the API reference lists their
 * messages, which is the order their failures are reported in (http/validation.ts); each field's
 * checks run bottom-up (http/validators.ts).
 */
export class CreateProjectDto {
  @ApiProperty(F.name)
  @NameChecks()
  @IsDefined({ message: M.nameRequired })
  name: string;

  @ApiProperty(F.start_date)
  @IsIsoDate(M.startDateFormat)
  @IsDefined({ message: M.startDateRequired })
  start_date: string;

  @EndDate()
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

  @OtherStatusReason()
  other_status_reason?: string;

  @ExternalId()
  external_id?: string | null;
}
