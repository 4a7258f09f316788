import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsStringField, WhenPresent } from '../../http/field-rules';

/** POST /admin/projections/rebuild (docs/operations.md): one projection, or all. */
export class RebuildDto {
  @ApiPropertyOptional({
    type: String,
    description: 'One projection (see GET /v1/admin/projections); absent = all, one after the other',
    example: 'projects',
  })
  @IsStringField('name')
  @WhenPresent()
  name?: string = undefined;
}
