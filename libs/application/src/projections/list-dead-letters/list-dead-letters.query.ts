import { Query } from '@nestjs/cqrs';
import { DeadLetter } from '../../ports/read-model.port';

/** The events parked by one projection, or by every projection. */
export class ListDeadLettersQuery extends Query<{ dead_letters: DeadLetter[] }> {
  constructor(readonly projection?: string) {
    super();
  }
}
