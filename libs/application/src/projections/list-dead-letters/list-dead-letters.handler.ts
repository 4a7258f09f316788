import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeadLetter } from '../../ports/read-model.port';
import { ProjectionEngine } from '../projection-engine';
import { knownProjection } from '../operator-checks';
import { ListDeadLettersQuery } from './list-dead-letters.query';

@QueryHandler(ListDeadLettersQuery)
export class ListDeadLettersHandler implements IQueryHandler<ListDeadLettersQuery, { dead_letters: DeadLetter[] }> {
  constructor(private readonly engine: ProjectionEngine) {}

  async execute({ projection }: ListDeadLettersQuery): Promise<{ dead_letters: DeadLetter[] }> {
    if (projection !== undefined) knownProjection(this.engine, projection);
    return { dead_letters: await this.engine.listDeadLetters(projection) };
  }
}
