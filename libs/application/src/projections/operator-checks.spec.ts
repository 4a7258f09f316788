import { DomainError } from '@app/domain';
import { DeadLetter } from '../ports/read-model.port';
import { ProjectionEngine, ProjectorOnlyError, UnknownDeadLetterError } from './projection-engine';
import { ProjectionMaintenance, ProjectionRole } from './projection-maintenance';
import { projectorOnlyMessage } from './operator-checks';
import { ListDeadLettersHandler } from './list-dead-letters/list-dead-letters.handler';
import { ListDeadLettersQuery } from './list-dead-letters/list-dead-letters.query';
import { RebuildProjectionsHandler } from './rebuild-projections/rebuild-projections.handler';
import { RebuildProjectionsCommand } from './rebuild-projections/rebuild-projections.command';
import { RetryDeadLetterHandler } from './retry-dead-letter/retry-dead-letter.handler';
import { RetryDeadLetterCommand } from './retry-dead-letter/retry-dead-letter.command';
import { SkipDeadLetterHandler } from './skip-dead-letter/skip-dead-letter.handler';
import { SkipDeadLetterCommand } from './skip-dead-letter/skip-dead-letter.command';
import { VerifyReadModelsHandler } from './verify-read-models/verify-read-models.handler';

const LETTER = { projection: 'jobs', position: 7 } as DeadLetter;

/** An engine that knows `jobs` and `audit`, with one dead letter: jobs at 7. */
function engine(): ProjectionEngine {
  const find = async (key: { projection: string; position: number }) => {
    if (key.position !== 7) throw new UnknownDeadLetterError(key);
    return LETTER;
  };
  return {
    projector: (name: string) => (['jobs', 'audit'].includes(name) ? {} : undefined),
    projectorNames: () => ['jobs', 'audit'],
    listDeadLetters: async () => [LETTER],
    retryDeadLetter: async (key: { projection: string; position: number }) => ({
      outcome: 'applied',
      deadLetter: await find(key),
    }),
    skipDeadLetter: find,
  } as unknown as ProjectionEngine;
}

function maintenance(role: ProjectionRole): ProjectionMaintenance {
  return {
    role,
    verify: async () => {
      throw new ProjectorOnlyError('A verification'); // the engine is not running
    },
  } as unknown as ProjectionMaintenance;
}

/** What a handler's failure says, as the HTTP layer sees it. */
async function failure(run: Promise<unknown>): Promise<[string, string]> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return [error.kind, error.message];
}

describe('the operator tools over projections', () => {
  it('refuse on a replica what only the projector runs, before anything else is checked', async () => {
    const replica = maintenance('replica');
    const retry = new RetryDeadLetterHandler(engine(), replica);
    const skip = new SkipDeadLetterHandler(engine(), replica);
    expect(await failure(retry.execute(new RetryDeadLetterCommand('nope', 'abc')))).toEqual([
      'conflict',
      projectorOnlyMessage('A dead-letter retry'),
    ]);
    expect(await failure(skip.execute(new SkipDeadLetterCommand('jobs', '0')))).toEqual([
      'conflict',
      projectorOnlyMessage('A dead-letter skip'),
    ]);
    expect(await failure(new RebuildProjectionsHandler(replica).execute(new RebuildProjectionsCommand()))).toEqual([
      'conflict',
      projectorOnlyMessage('A rebuild'),
    ]);
    expect(await failure(new VerifyReadModelsHandler(replica).execute())).toEqual([
      'conflict',
      projectorOnlyMessage('A verification'),
    ]);
  });

  it('on the projector, check the position, then the projection, then the dead letter', async () => {
    const retry = new RetryDeadLetterHandler(engine(), maintenance('projector'));
    expect(await failure(retry.execute(new RetryDeadLetterCommand('nope', '0')))).toEqual([
      'validation',
      'position must be a positive integer',
    ]);
    expect(await failure(retry.execute(new RetryDeadLetterCommand('nope', '7')))).toEqual([
      'not_found',
      'Unknown projection nope (known: jobs, audit)',
    ]);
    expect(await failure(retry.execute(new RetryDeadLetterCommand('jobs', '8')))).toEqual([
      'not_found',
      'No dead letter at position 8 of projection jobs',
    ]);
    expect(await retry.execute(new RetryDeadLetterCommand('jobs', '7'))).toEqual({
      outcome: 'applied',
      dead_letter: LETTER,
    });
  });

  it('turn a verification refused by a stopped engine into the same conflict', async () => {
    expect(await failure(new VerifyReadModelsHandler(maintenance('projector')).execute())).toEqual([
      'conflict',
      projectorOnlyMessage('A verification'),
    ]);
  });

  it('list the dead letters of a known projection, or say which projections exist', async () => {
    const list = new ListDeadLettersHandler(engine());
    expect(await list.execute(new ListDeadLettersQuery('jobs'))).toEqual({ dead_letters: [LETTER] });
    expect(await failure(list.execute(new ListDeadLettersQuery('nope')))).toEqual([
      'not_found',
      'Unknown projection nope (known: jobs, audit)',
    ]);
  });
});
