import { dropOldest } from '@app/application/shared/drop-oldest';

/**
 * What a write to the read models may change, gathered while its steps are built: the documents
 * it names, and the collections it changes beyond them (a filtered delete, a drop, a swap). Every
 * collection it writes to may have its lists changed.
 */
export class Touched {
  /** Collections written to: their list pages may have changed. */
  readonly lists = new Set<string>();
  /** Documents named by id (put, merge, delete), by collection. */
  readonly documents = new Map<string, string[]>();
  /** Collections changed beyond the documents named: all they hold goes. */
  readonly whole = new Set<string>();

  document(collection: string, id: string): void {
    this.lists.add(collection);
    const ids = this.documents.get(collection);
    if (ids) ids.push(id);
    else this.documents.set(collection, [id]);
  }

  collection(collection: string): void {
    this.lists.add(collection);
    this.whole.add(collection);
  }
}

export interface ReadCacheOptions {
  /** Documents held per collection; past it, the one kept longest ago goes. */
  documents: number;
  /**
   * List pages held per collection, by the total length of their documents' stored JSON text and
   * their keys (the parsed objects take a small multiple of that).
   */
  pageChars: number;
}

/**
 * At most a few collections are read often (projects, jobs, members): about 5,000 documents (0.3
 * to 1 KB of JSON each) and 2 MB of JSON text in list pages (18 KB for a page of 50 projects) each.
 */
export const DEFAULT_READ_CACHE: ReadCacheOptions = { documents: 5_000, pageChars: 2 * 1024 * 1024 };

/** What a kept page costs beyond its texts and key: its entry, its array, the objects of its rows. */
const PAGE_OVERHEAD_CHARS = 128;

interface Page<Row> {
  rows: readonly Row[];
  chars: number;
}

interface CollectionCache<Row> {
  documents: Map<string, Row>;
  /** Rows of a query, by its statement and parameters. */
  pages: Map<string, Page<Row>>;
  pageChars: number;
  /** Documents and pages missed once lately, not kept (see `admitDocument`). */
  missedDocuments: Set<string>;
  missedPages: Set<string>;
}

/** Page keys remembered as missed once, per collection: about as many as the pages held. */
const MISSED_PAGES = 128;

/**
 * Documents this process has read from the read models, kept until a write of this process that
 * may have changed them ends: a document until a write names it (or changes its collection beyond
 * the documents it names), a list page (the documents of one query) until a write touches its
 * collection.
 *
 * The invariant it relies on: every change to the file passes through this process's store. That
 * holds in one process only, the read models' one writer: the projector (PROJECTIONS=inline),
 * which holds the projector lock on DATA_DIR (SqliteProcessLock) for as long as it runs, so a
 * second projector on the same files is refused at start. A replica (PROJECTIONS=external), whose
 * file the projector changes, never caches and reads the file as it is; so does every MongoDB
 * read model store, whose collections several processes share. Nothing here checks the invariant:
 * the composition root turns the cache on only in the projector (READ_CACHE=off turns it off).
 *
 * A read made while a write is on its way may see the file before or after the write's commit;
 * what it keeps is forgotten when the write ends, before anyone is told it has (the store forgets
 * before its `apply` resolves). Reads and `forget` each run in one go on this thread, so nothing
 * read before a commit can be kept after the write has ended.
 *
 * Each collection holds a bounded number of documents and of page text; past the bound, what was
 * kept longest ago goes first (a Map keeps insertion order), and is read from the file again when
 * asked for, like any miss.
 *
 * Only what is read again is kept: a document or page is kept on its second miss among the last
 * few (`admitDocument`, `admitPage`). Keeping everything read cost more than it saved where reads
 * seldom repeat: a client paging through a list (400 different pages in turn) made each page kept
 * live just long enough to reach V8's old generation before it was pushed out, which made every
 * page dearer than not keeping it at all.
 */
export class ReadCache<Row> {
  private readonly collections = new Map<string, CollectionCache<Row>>();

  constructor(private readonly options: ReadCacheOptions) {}

  document(collection: string, id: string): Row | undefined {
    return this.collections.get(collection)?.documents.get(id);
  }

  /**
   * Whether a document just read from the file should be kept: yes when it was missed once
   * already among the last `documents` misses of its collection; otherwise that miss is noted.
   */
  admitDocument(collection: string, id: string): boolean {
    return admit(this.cacheOf(collection).missedDocuments, id, this.options.documents);
  }

  /** The same for a page (among the last 128 pages missed in its collection). */
  admitPage(collection: string, key: string): boolean {
    return admit(this.cacheOf(collection).missedPages, key, MISSED_PAGES);
  }

  keepDocument(collection: string, id: string, row: Row): void {
    const { documents } = this.cacheOf(collection);
    documents.set(id, row);
    dropOldest(documents, this.options.documents);
  }

  page(collection: string, key: string): readonly Row[] | undefined {
    return this.collections.get(collection)?.pages.get(key)?.rows;
  }

  /**
   * `chars`: the length of the rows' texts. A page also counts its key and a little more, so that
   * pages of nothing (an unknown API key's lookup, asked with one random key after another) still
   * fill the bound and push older pages out, instead of piling up at no cost.
   */
  keepPage(collection: string, key: string, rows: readonly Row[], textChars: number): void {
    const chars = textChars + key.length + PAGE_OVERHEAD_CHARS;
    if (chars > this.options.pageChars) return;
    const cache = this.cacheOf(collection);
    const previous = cache.pages.get(key);
    if (previous) cache.pageChars -= previous.chars;
    cache.pages.set(key, { rows, chars });
    cache.pageChars += chars;
    for (const [oldest, page] of cache.pages) {
      if (cache.pageChars <= this.options.pageChars) break;
      cache.pages.delete(oldest);
      cache.pageChars -= page.chars;
    }
  }

  /** Drops what a write that has ended may have changed. */
  forget(touched: Touched): void {
    for (const collection of touched.whole) this.collections.delete(collection);
    for (const [collection, ids] of touched.documents) {
      const documents = this.collections.get(collection)?.documents;
      if (documents) for (const id of ids) documents.delete(id);
    }
    for (const collection of touched.lists) {
      const cache = this.collections.get(collection);
      if (cache && cache.pages.size > 0) {
        cache.pages.clear();
        cache.pageChars = 0;
      }
    }
  }

  /** What is held now, over all collections. */
  get size(): { documents: number; pages: number; pageChars: number } {
    const size = { documents: 0, pages: 0, pageChars: 0 };
    for (const cache of this.collections.values()) {
      size.documents += cache.documents.size;
      size.pages += cache.pages.size;
      size.pageChars += cache.pageChars;
    }
    return size;
  }

  private cacheOf(collection: string): CollectionCache<Row> {
    let cache = this.collections.get(collection);
    if (!cache) {
      cache = {
        documents: new Map(),
        pages: new Map(),
        pageChars: 0,
        missedDocuments: new Set(),
        missedPages: new Set(),
      };
      this.collections.set(collection, cache);
    }
    return cache;
  }
}

/** True when `key` was missed once among the last `bound` misses (and is then no longer noted as missed). */
function admit(missed: Set<string>, key: string, bound: number): boolean {
  if (missed.delete(key)) return true;
  missed.add(key);
  dropOldest(missed, bound);
  return false;
}

/**
 * Freezes a parsed JSON value and everything in it (no cycles in parsed JSON): what the cache keeps
 * is handed to every reader, so a reader that tried to change it would change every other
 * reader's answer; frozen, the attempt fails at once instead.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
