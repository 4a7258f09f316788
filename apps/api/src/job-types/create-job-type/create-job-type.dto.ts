import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsString } from 'class-validator';
import { JOB_TYPE_LIMITS as L, JOB_TYPE_MESSAGES as M } from '@app/domain';
import { CharLength, IsOmittable, MUST_BE_STRING } from '../../http/validators';
import { JOB_TYPE_FIELD as F } from '../../openapi/schemas/job-types.schema';

/** POST /job-types (docs/api.md, Job types). Each field's checks run bottom-up (http/validators.ts). */
export class CreateJobTypeDto {
  @ApiProperty(F.name)
  @CharLength(L.name.min, L.name.max, M.nameLength)
  @IsString(MUST_BE_STRING)
  @IsDefined({ message: M.nameRequired })
  name: string;

  /** Absent means the default icon; null is not an icon name, so it is refused like any non-string. */
  @ApiPropertyOptional(F.icon)
  @CharLength(0, L.icon.max, M.iconLength)
  @IsNotEmpty({ message: M.iconEmpty })
  @IsString({ message: M.iconString })
  @IsOmittable()
  icon?: string;
}
