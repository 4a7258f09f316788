import { conflict, DomainError, notFound, validationError } from '@app/domain';
import { DeadLetterKey } from '../ports/read-model.port';
import { ProjectionEngine, ProjectorOnlyError, UnknownDeadLetterError } from './projection-engine';
import { ProjectionMaintenance, UnknownProjectionError } from './projection-maintenance';

/*
 * What the operator tools over projections check before they act, and the operator-facing errors
 * they end in: the HTTP layer maps their kinds (validation 400, not_found 404, conflict 409).
 */

export const POSITION_POSITIVE = 'position must be a positive integer';

/** The 409 of an operation only the projector runs, asked of a replica: where to send it instead. */
export function projectorOnlyMessage(operation: string): string {
  return `${operation} runs only on the projector, the one process started with PROJECTIONS=inline; this process is an API replica (PROJECTIONS=external) and only reads the read models. Send it to the projector's admin API (CLI: --url http://<projector>:<port>)`;
}

/**
 * Rebuild, verify, retry and skip write the read models (or compare them at the live checkpoint):
 * only the projector runs them. A replica refuses with a conflict naming where to go, instead of
 * replaying "up to checkpoint 0" and swapping empty read models over the live ones.
 */
export function requireProjector(maintenance: ProjectionMaintenance, operation: string): void {
  if (maintenance.role !== 'projector') throw conflict(projectorOnlyMessage(operation));
}

/** A projection this process knows, or a not-found naming the ones it knows. */
export function knownProjection(engine: ProjectionEngine, projection: string): string {
  if (!engine.projector(projection)) {
    throw notFound(new UnknownProjectionError(projection, engine.projectorNames()).message);
  }
  return projection;
}

/** A dead letter's key from the operator's projection name and position (as written in the path). */
export function deadLetterKey(engine: ProjectionEngine, projection: string, position: string): DeadLetterKey {
  if (!/^[1-9][0-9]{0,15}$/.test(position)) throw validationError(POSITION_POSITIVE);
  return { projection: knownProjection(engine, projection), position: Number(position) };
}

/** The operator-facing error of a projection operation's failure; anything else as it is. */
export function operatorError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  if (error instanceof UnknownProjectionError) return notFound(error.message);
  if (error instanceof UnknownDeadLetterError) return notFound(error.message);
  if (error instanceof ProjectorOnlyError) return conflict(projectorOnlyMessage(error.operation));
  return error;
}
