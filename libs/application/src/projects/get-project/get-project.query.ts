import { Query } from '@nestjs/cqrs';
import { StoredJson } from '../../ports/read-model.port';

/**
 * A project of the caller's workspace as the read model stores it: its JSON text (the GET's body,
 * sent without a parse or a re-serialisation) and the revision it mirrors (the ETag).
 */
export class GetProjectQuery extends Query<StoredJson> {
  constructor(
    readonly workspaceId: string,
    readonly projectId: string,
  ) {
    super();
  }
}
