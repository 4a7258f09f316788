import { DocumentJson } from '../../ports/read-model.port';
import { encodeCursor, PAGE_SIZE } from '../../shared/pagination';

/**
 * A response body that is already JSON text, to be sent as it is with a JSON content type.
 * `toJSON` keeps it correct wherever it is serialised like any other value instead (slower).
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * A list page `{"<key>":[...],"count":n,"cursor":...}` spliced from the stored JSON of its
 * documents: the same JSON as `JSON.stringify({ [key]: docs, count, cursor })` of the parsed page
 * (toPage), without parsing 50 documents only to serialise them again, which was most of a list
 * request's CPU. `found` was fetched with limit `size + 1`: the extra item only says that more exist.
 */
export function jsonPage(key: string, found: DocumentJson[], size = PAGE_SIZE): JsonText {
  const items = found.length > size ? found.slice(0, size) : found;
  const cursor = found.length > size ? JSON.stringify(encodeCursor(items[items.length - 1].seq)) : 'null';
  let docs = '';
  for (let i = 0; i < items.length; i++) docs += i === 0 ? items[i].json : `,${items[i].json}`;
  return new JsonText(`{${JSON.stringify(key)}:[${docs}],"count":${items.length},"cursor":${cursor}}`);
}
