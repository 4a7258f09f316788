import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { PROJECT_MESSAGES } from '@app/domain';

/** POST /projects/{id}/archive */
export class ArchiveProjectDto {
  @ApiProperty({
    type: Boolean,
    description: '`true` archives the project (left out of the default list), `false` restores it',
    example: true,
  })
  @IsBoolean({ message: PROJECT_MESSAGES.archivedBoolean })
  archived: boolean;
}
