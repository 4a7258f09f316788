import { ApiProperty } from '@nestjs/swagger';
import { IsBooleanField } from '../../http/field-rules';

/** POST /projects/{id}/archive */
export class ArchiveProjectDto {
  @ApiProperty({
    type: Boolean,
    description: '`true` archives the project (left out of the default list), `false` restores it',
    example: true,
  })
  @IsBooleanField('archived must be a boolean')
  archived: boolean = undefined as never;
}
