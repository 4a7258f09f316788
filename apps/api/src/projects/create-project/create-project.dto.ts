import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROJECT_LIMITS as L, PROJECT_MESSAGES as M, STATUS_MESSAGE, STATUS_VALUES, Status } from '@app/domain';
import {
  IsIsoDate,
  IsStringField,
  LengthBetween,
  OneOf,
  OptionalString,
  OtherStatusReason,
  Required,
  RequiredString,
  WhenSet,
} from '../../http/field-rules';
import { orNull } from '../../openapi/schemas/common.schema';
import { PROJECT_FIELD as F, STATUS_FIELD } from '../../openapi/schemas/projects.schema';

/** POST /projects (docs/api.md, Projects); fields in the order the API reference lists its messages. */
export class CreateProjectDto {
  @ApiProperty(F.name)
  @RequiredString('name', L.name.min, L.name.max, M.nameLength)
  name: string = undefined as never;

  @ApiProperty(F.start_date)
  @applyDecorators(Required(M.startDateRequired), IsIsoDate(M.startDateFormat))
  start_date: string = undefined as never;

  @ApiPropertyOptional(orNull(F.end_date))
  @applyDecorators(WhenSet(), IsIsoDate(M.endDateFormat))
  end_date?: string | null = undefined;

  /** Required, but may be empty on create: the API reference bounds it to 1..1000 only on update. */
  @ApiProperty({ ...F.description, description: 'Required; may be empty on create' })
  @applyDecorators(
    Required(M.descriptionRequired),
    IsStringField('description'),
    LengthBetween(L.description.createMin, L.description.max, M.descriptionLength),
  )
  description: string = undefined as never;

  @ApiProperty(STATUS_FIELD)
  @OneOf(STATUS_VALUES, STATUS_MESSAGE)
  status: Status = undefined as never;

  @ApiPropertyOptional(F.other_status_reason)
  @OtherStatusReason()
  other_status_reason?: string = undefined;

  @ApiPropertyOptional(orNull(F.external_id))
  @OptionalString('external_id', L.externalId, M.externalIdLength)
  external_id?: string | null = undefined;
}
