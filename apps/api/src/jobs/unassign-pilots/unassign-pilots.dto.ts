import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsNotEmpty, IsString } from 'class-validator';
import { ASSIGNMENT_MESSAGES as M, MAX_PILOTS_PER_REQUEST } from '@app/domain';
import { PILOTS_FIELD } from '../assign-pilots/assign-pilots.dto';

/**
 * POST .../unassign (docs/api.md, Jobs): user ids of pilots, from GET /team?role=pilot; a repeated id
 * counts once. The API reference's first message covers missing, null, not an array and empty alike.
 */
export class UnassignPilotsDto {
  @ApiProperty(PILOTS_FIELD)
  @IsNotEmpty({ each: true, message: M.pilotIds })
  @IsString({ each: true, message: M.pilotIds })
  @ArrayMaxSize(MAX_PILOTS_PER_REQUEST, { message: M.pilotsCount })
  @ArrayNotEmpty({ message: M.unassignPilotsRequired })
  @IsArray({ message: M.unassignPilotsRequired })
  pilots: string[];
}
