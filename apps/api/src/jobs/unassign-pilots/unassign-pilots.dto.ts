import { ApiProperty } from '@nestjs/swagger';
import { ASSIGNMENT_MESSAGES as M, MAX_PILOTS_PER_REQUEST } from '@app/domain';
import { PILOTS_FIELD } from '../../openapi/schemas/jobs.schema';
import { PilotIdList } from '../job-field-rules';

/** POST .../unassign (docs/api.md, Jobs); its missing-list message is worded differently from assign's. */
export class UnassignPilotsDto {
  @ApiProperty(PILOTS_FIELD)
  @PilotIdList(M.unassignPilotsRequired, MAX_PILOTS_PER_REQUEST, M.pilotsCount, M.pilotIds)
  pilots: string[] = undefined as never;
}
