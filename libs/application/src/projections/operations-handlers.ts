import { ExportEventsHandler } from '../history/export-events/export-events.handler';
import { GetProjectionStatusHandler } from './get-projection-status/get-projection-status.handler';
import { ListDeadLettersHandler } from './list-dead-letters/list-dead-letters.handler';
import { RebuildProjectionsHandler } from './rebuild-projections/rebuild-projections.handler';
import { RetryDeadLetterHandler } from './retry-dead-letter/retry-dead-letter.handler';
import { SkipDeadLetterHandler } from './skip-dead-letter/skip-dead-letter.handler';
import { VerifyReadModelsHandler } from './verify-read-models/verify-read-models.handler';

/** The operator tools over projections and the event store (the CLI's `projections` and `events`). */
export const OPERATIONS_HANDLERS = [
  GetProjectionStatusHandler,
  ListDeadLettersHandler,
  RetryDeadLetterHandler,
  SkipDeadLetterHandler,
  RebuildProjectionsHandler,
  VerifyReadModelsHandler,
  ExportEventsHandler,
];
