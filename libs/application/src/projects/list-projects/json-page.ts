import { DocumentJson } from '../../ports/read-model.port';
import { encodeCursor, PAGE_SIZE } from '../../shared/pagination';

const utf8 = new TextEncoder();

/**
 * A response body that is already JSON text, to be sent as it is with a JSON content type.
 * `toJSON` keeps it correct wherever it is serialised like any other value instead (slower).
 */
export class JsonText {
  #bytes: Uint8Array | undefined;

  constructor(readonly text: string) {}

  /** The text as UTF-8, encoded when first asked for: a page answered again is not encoded again. */
  get bytes(): Uint8Array {
    return (this.#bytes ??= utf8.encode(this.text));
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** Pages built from documents an adapter hands out again unchanged (a frozen array), by that array. */
const built = new WeakMap<readonly DocumentJson[], Map<string, JsonText>>();

/**
 * A list page `{"<key>":[...],"count":n,"cursor":...}` spliced from the stored JSON of its
 * documents: the same JSON as `JSON.stringify({ [key]: docs, count, cursor })` of the parsed page
 * (toPage), without parsing 50 documents only to serialise them again, which was most of a list
 * request's CPU. `found` was fetched with limit `size + 1`: the extra item only says that more exist.
 *
 * When `found` is frozen, the adapter hands the same array out again while its documents stay as
 * they are (the embedded projector's read cache): the page is built once for it, and the same
 * JsonText (and its bytes) answers every request until the documents change.
 */
export function jsonPage(key: string, found: readonly DocumentJson[], size = PAGE_SIZE): JsonText {
  if (!Object.isFrozen(found)) return buildPage(key, found, size);
  const shape = `${size} ${key}`;
  let pages = built.get(found);
  let page = pages?.get(shape);
  if (!page) {
    page = buildPage(key, found, size);
    if (!pages) built.set(found, (pages = new Map()));
    pages.set(shape, page);
  }
  return page;
}

function buildPage(key: string, found: readonly DocumentJson[], size: number): JsonText {
  const items = found.length > size ? found.slice(0, size) : found;
  const cursor = found.length > size ? JSON.stringify(encodeCursor(items[items.length - 1].seq)) : 'null';
  let docs = '';
  for (let i = 0; i < items.length; i++) docs += i === 0 ? items[i].json : `,${items[i].json}`;
  return new JsonText(`{${JSON.stringify(key)}:[${docs}],"count":${items.length},"cursor":${cursor}}`);
}
