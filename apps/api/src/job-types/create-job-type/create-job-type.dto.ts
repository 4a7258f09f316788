import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { JOB_TYPE_LIMITS as L, JOB_TYPE_MESSAGES as M } from '@app/domain';
import { IsStringField, LengthBetween, RequiredString, WhenPresent } from '../../http/field-rules';
import { JOB_TYPE_FIELD } from '../../openapi/schemas/job-types.schema';

const NotEmpty = (message: string) =>
  ValidateBy(
    { name: 'notEmpty', validator: { validate: (v: unknown) => typeof v === 'string' && v.length > 0 } },
    { message },
  );

/** POST /job-types (docs/api.md, Job types). */
export class CreateJobTypeDto {
  @ApiProperty(JOB_TYPE_FIELD.name)
  @RequiredString('name', L.name.min, L.name.max, M.nameLength)
  name: string = undefined as never;

  /** Absent means the default icon; null is not an icon name, so it is refused like any non-string. */
  @ApiPropertyOptional(JOB_TYPE_FIELD.icon)
  @applyDecorators(
    WhenPresent(),
    IsStringField('icon', M.iconString),
    NotEmpty(M.iconEmpty),
    LengthBetween(0, L.icon.max, M.iconLength),
  )
  icon?: string = undefined;
}
