import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { STATUS_MESSAGE, STATUS_VALUES, Status } from '@app/domain';
import {
  IsIsoDate,
  IsStringField,
  LengthBetween,
  OneOf,
  OptionalString,
  WhenPresent,
  WhenSet,
} from '../../http/field-rules';
import { orNull } from '../../openapi/schemas/common.schema';
import { PROJECT_FIELD as F, STATUS_FIELD } from '../../openapi/schemas/projects.schema';
import { OtherStatusReason } from '../create-project/create-project.dto';

/** PATCH /projects/{id}: every field optional; only supplied fields change; null clears the nullable ones. */
export class UpdateProjectDto {
  @ApiPropertyOptional(F.name)
  @applyDecorators(
    WhenPresent(),
    IsStringField('name'),
    LengthBetween(1, 100, 'name must be between 1 and 100 characters'),
  )
  name?: string = undefined;

  @ApiPropertyOptional(F.start_date)
  @applyDecorators(WhenPresent(), IsIsoDate('start_date must be a valid ISO date string'))
  start_date?: string = undefined;

  @ApiPropertyOptional({ ...orNull(F.end_date), description: 'ISO 8601 date, after start_date; null clears it' })
  @applyDecorators(WhenSet(), IsIsoDate('end_date must be a valid ISO date string'))
  end_date?: string | null = undefined;

  @ApiPropertyOptional({ ...F.description, minLength: 1 })
  @applyDecorators(
    WhenPresent(),
    IsStringField('description'),
    LengthBetween(1, 1000, 'description must be between 1 and 1000 characters'),
  )
  description?: string = undefined;

  @ApiPropertyOptional(STATUS_FIELD)
  @applyDecorators(WhenPresent(), OneOf(STATUS_VALUES, STATUS_MESSAGE))
  status?: Status = undefined;

  @ApiPropertyOptional(F.other_status_reason)
  @OtherStatusReason()
  other_status_reason?: string = undefined;

  @ApiPropertyOptional({ ...orNull(F.external_id), description: "The caller's own identifier; null clears it" })
  @OptionalString('external_id', 255, 'external_id must not exceed 255 characters')
  external_id?: string | null = undefined;

  @ApiPropertyOptional({
    ...orNull(F.laanc_number),
    description: 'Airspace authorization number (writable only on update); null clears it',
  })
  @OptionalString('laanc_number', 100, 'laanc_number must not exceed 100 characters')
  laanc_number?: string | null = undefined;
}
