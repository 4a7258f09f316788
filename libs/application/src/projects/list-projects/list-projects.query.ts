import { Query } from '@nestjs/cqrs';
import { ProjectView, Status } from '@app/domain';
import { JsonText } from './json-page';

export { jsonPage, JsonText } from './json-page';

export interface ProjectList {
  projects: ProjectView[];
  count: number;
  cursor: string | null;
}

export interface ProjectListFilter {
  statuses?: Status[];
  archived: boolean;
  cursor?: string;
}

/**
 * GET /projects: a page of projects as the JSON text of a ProjectList, spliced from the stored
 * documents, so the answer needs neither a parse of each document nor a serialisation of the page.
 */
export class ListProjectsJsonQuery extends Query<JsonText> {
  constructor(
    readonly workspaceId: string,
    readonly filter: ProjectListFilter,
  ) {
    super();
  }
}
