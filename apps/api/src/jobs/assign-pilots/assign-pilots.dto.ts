import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsNotEmpty, IsString } from 'class-validator';
import { ASSIGNMENT_MESSAGES as M, MAX_PILOTS_PER_REQUEST } from '@app/domain';
import { EXAMPLE } from '../../openapi/schemas/common.schema';

/** How the document describes `pilots` of assign and unassign. */
export const PILOTS_FIELD = {
  type: [String],
  minItems: 1,
  maxItems: MAX_PILOTS_PER_REQUEST,
  description: 'User ids of pilots (from `GET /v1/team?role=pilot`); repeated ids count once',
  example: [EXAMPLE.userId],
} satisfies ApiPropertyOptions;

/**
 * POST .../assign (docs/api.md, Jobs): user ids of pilots, from GET /team?role=pilot; a repeated id
 * counts once. The API reference's first message covers missing, null, not an array and empty alike.
 */
export class AssignPilotsDto {
  @ApiProperty(PILOTS_FIELD)
  @IsNotEmpty({ each: true, message: M.pilotIds })
  @IsString({ each: true, message: M.pilotIds })
  @ArrayMaxSize(MAX_PILOTS_PER_REQUEST, { message: M.pilotsCount })
  @ArrayNotEmpty({ message: M.assignPilotsRequired })
  @IsArray({ message: M.assignPilotsRequired })
  pilots: string[];
}
