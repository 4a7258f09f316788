import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { PROJECT_LIMITS as L, PROJECT_MESSAGES as M, Status, STATUS_MESSAGE, STATUS_VALUES } from '@app/domain';
import { CharLength, IsIsoDate, IsOmittable, MUST_BE_STRING } from '../../http/validators';
import { orNull } from '../../openapi/schemas/common.schema';
import { PROJECT_FIELD as F, STATUS_FIELD } from '../../openapi/schemas/projects.schema';
import { EndDate, ExternalId, NameChecks, OtherStatusReason } from '../project-fields';

/**
 * PATCH /projects/{id}: every field optional; only supplied fields change; null clears end_date,
 * external_id and laanc_number and is refused for the others. `laanc_number` is written only here;
 * `description` may not be emptied.
 */
export class UpdateProjectDto {
  @ApiPropertyOptional(F.name)
  @NameChecks()
  @IsOmittable()
  name?: string;

  @ApiPropertyOptional(F.start_date)
  @IsIsoDate(M.startDateFormat)
  @IsOmittable()
  start_date?: string;

  @EndDate('ISO 8601 date, after start_date; null clears it')
  end_date?: string | null;

  @ApiPropertyOptional({ ...F.description, minLength: L.description.min })
  @CharLength(L.description.min, L.description.max, M.descriptionLength)
  @IsString(MUST_BE_STRING)
  @IsOmittable()
  description?: string;

  @ApiPropertyOptional(STATUS_FIELD)
  @IsIn(STATUS_VALUES, { message: STATUS_MESSAGE })
  @IsOmittable()
  status?: Status;

  @OtherStatusReason()
  other_status_reason?: string;

  @ExternalId("The caller's own identifier; null clears it")
  external_id?: string | null;

  @ApiPropertyOptional({
    ...orNull(F.laanc_number),
    description: 'Airspace authorization number (writable only on update); null clears it',
  })
  @CharLength(0, L.laancNumber, M.laancNumberLength)
  @IsString(MUST_BE_STRING)
  @IsOptional()
  laanc_number?: string | null;
}
