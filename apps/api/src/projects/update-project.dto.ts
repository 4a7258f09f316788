import { applyDecorators } from '@nestjs/common';
import { STATUS_MESSAGE, STATUS_VALUES, Status } from '@app/domain';
import { IsBooleanField, IsIsoDate, IsStringField, LengthBetween, OneOf, OptionalString, WhenPresent, WhenSet } from '../http/field-rules';
import { OtherStatusReason } from './create-project.dto';

/** PATCH /projects/{id}: every field optional; only supplied fields change; null clears the nullable ones. */
export class UpdateProjectDto {
  @applyDecorators(WhenPresent(), IsStringField('name'), LengthBetween(1, 100, 'name must be between 1 and 100 characters'))
  name?: string = undefined;

  @applyDecorators(WhenPresent(), IsIsoDate('start_date must be a valid ISO date string'))
  start_date?: string = undefined;

  @applyDecorators(WhenSet(), IsIsoDate('end_date must be a valid ISO date string'))
  end_date?: string | null = undefined;

  @applyDecorators(
    WhenPresent(),
    IsStringField('description'),
    LengthBetween(1, 1000, 'description must be between 1 and 1000 characters'),
  )
  description?: string = undefined;

  @applyDecorators(WhenPresent(), OneOf(STATUS_VALUES, STATUS_MESSAGE))
  status?: Status = undefined;

  @OtherStatusReason()
  other_status_reason?: string = undefined;

  @OptionalString('external_id', 255, 'external_id must not exceed 255 characters')
  external_id?: string | null = undefined;

  @OptionalString('laanc_number', 100, 'laanc_number must not exceed 100 characters')
  laanc_number?: string | null = undefined;
}

/** POST /projects/{id}/archive */
export class ArchiveProjectDto {
  @IsBooleanField('archived must be a boolean')
  archived: boolean = undefined as never;
}
