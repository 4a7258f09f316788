import { ASSIGNMENT_MESSAGES as M } from '@app/domain';
import { Pilots } from '../job-fields';

/**
 * POST .../assign (docs/api.md, Jobs): user ids of pilots, from GET /team?role=pilot; a repeated id
 * counts once. The API reference's first message covers missing, null, not an array and empty alike.
 */
export class AssignPilotsDto {
  @Pilots(M.assignPilotsRequired)
  pilots: string[];
}
