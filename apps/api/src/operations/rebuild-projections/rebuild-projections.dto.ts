import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsOmittable, MUST_BE_STRING } from '../../http/validators';

/** POST /admin/projections/rebuild (docs/operations.md): one projection, or all. */
export class RebuildDto {
  @ApiPropertyOptional({
    type: String,
    description: 'One projection (see GET /v1/admin/projections); absent = all, one after the other',
    example: 'projects',
  })
  @IsString(MUST_BE_STRING)
  @IsOmittable()
  name?: string;
}
