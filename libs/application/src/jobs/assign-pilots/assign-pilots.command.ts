import { JobPilotsCommand } from '../job-pilots.command';

/** Response of POST .../assign (docs/api.md, Jobs), field for field. */
export interface AssignPilotsResult {
  message: string;
  results: { successful: number; skipped: number; failed: number };
  pilots_assigned: string[];
  pilots_skipped: string[];
  occurrences_per_pilot: number;
}

export class AssignPilotsCommand extends JobPilotsCommand<AssignPilotsResult> {}
