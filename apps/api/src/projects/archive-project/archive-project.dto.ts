import { ApiProperty } from '@nestjs/swagger';
import { PROJECT_MESSAGES } from '@app/domain';
import { IsBooleanField } from '../../http/field-rules';

/** POST /projects/{id}/archive */
export class ArchiveProjectDto {
  @ApiProperty({
    type: Boolean,
    description: '`true` archives the project (left out of the default list), `false` restores it',
    example: true,
  })
  @IsBooleanField(PROJECT_MESSAGES.archivedBoolean)
  archived: boolean = undefined as never;
}
