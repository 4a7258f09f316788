import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { PROJECT_LIMITS as L, PROJECT_MESSAGES as M, STATUS_MESSAGE, STATUS_VALUES, Status } from '@app/domain';
import {
  IsIsoDate,
  IsStringField,
  LengthBetween,
  OneOf,
  OptionalString,
  OtherStatusReason,
  WhenPresent,
  WhenSet,
} from '../../http/field-rules';
import { orNull } from '../../openapi/schemas/common.schema';
import { PROJECT_FIELD as F, STATUS_FIELD } from '../../openapi/schemas/projects.schema';

/** PATCH /projects/{id}: every field optional; only supplied fields change; null clears the nullable ones. */
export class UpdateProjectDto {
  @ApiPropertyOptional(F.name)
  @applyDecorators(WhenPresent(), IsStringField('name'), LengthBetween(L.name.min, L.name.max, M.nameLength))
  name?: string = undefined;

  @ApiPropertyOptional(F.start_date)
  @applyDecorators(WhenPresent(), IsIsoDate(M.startDateFormat))
  start_date?: string = undefined;

  @ApiPropertyOptional({ ...orNull(F.end_date), description: 'ISO 8601 date, after start_date; null clears it' })
  @applyDecorators(WhenSet(), IsIsoDate(M.endDateFormat))
  end_date?: string | null = undefined;

  @ApiPropertyOptional({ ...F.description, minLength: L.description.min })
  @applyDecorators(
    WhenPresent(),
    IsStringField('description'),
    LengthBetween(L.description.min, L.description.max, M.descriptionLength),
  )
  description?: string = undefined;

  @ApiPropertyOptional(STATUS_FIELD)
  @applyDecorators(WhenPresent(), OneOf(STATUS_VALUES, STATUS_MESSAGE))
  status?: Status = undefined;

  @ApiPropertyOptional(F.other_status_reason)
  @OtherStatusReason()
  other_status_reason?: string = undefined;

  @ApiPropertyOptional({ ...orNull(F.external_id), description: "The caller's own identifier; null clears it" })
  @OptionalString('external_id', L.externalId, M.externalIdLength)
  external_id?: string | null = undefined;

  @ApiPropertyOptional({
    ...orNull(F.laanc_number),
    description: 'Airspace authorization number (writable only on update); null clears it',
  })
  @OptionalString('laanc_number', L.laancNumber, M.laancNumberLength)
  laanc_number?: string | null = undefined;
}
