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
  /** List pages held per collection, by the total length of their texts and keys (about their bytes). */
  pageChars: number;
}

/**
 * At most a few collections are read often (projects, jobs, members): about 5 MB of documents
 * (0.3 to 1 KB each) and 2 MB of list pages (18 KB for a page of 50 projects) each.
 */
export const DEFAULT_READ_CACHE: ReadCacheOptions = { documents: 5_000, pageChars: 2 * 1024 * 1024 };

/** What a kept page costs beyond its texts and key: its entry, its array, the objects of its rows. */
const PAGE_OVERHEAD_CHARS = 128;

interface Page {
  rows: readonly unknown[];
  chars: number;
}

interface CollectionCache<Row> {
  documents: Map<string, Row>;
  /** Rows of a query, by its statement and parameters. */
  pages: Map<string, Page>;
  pageChars: number;
  /** Documents and pages missed once lately, not kept (see `admitDocument`). */
  missedDocuments: Set<string>;
  missedPages: Set<string>;
}

/** Page keys remembered as missed once, per collection: about as many as the pages held. */
const MISSED_PAGES = 128;

/**
 * Rows this process has read from the read models, kept until a write of this process that may
 * have changed them ends: a document until a write names it (or changes its collection beyond the
 * documents it names), a list page until a write touches its collection. Correct only where every
 * change to the file passes through this process's store: the projector's, the read models' one
 * writer. A replica, whose file the projector changes, reads it as it is.
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
 * seldom repeat: a client paging through a list (400 different pages in turn) cost 163 us a page
 * uncached and about 300 kept, each kept page (its rows, text and bytes, some 50 KB) living just
 * long enough to reach V8's old generation before it was pushed out.
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

  page<T>(collection: string, key: string): readonly T[] | undefined {
    return this.collections.get(collection)?.pages.get(key)?.rows as readonly T[] | undefined;
  }

  /**
   * `chars`: the length of the rows' texts. A page also counts its key and a little more, so that
   * pages of nothing (an unknown API key's lookup, asked with one random key after another) still
   * fill the bound and push older pages out, instead of piling up at no cost.
   */
  keepPage(collection: string, key: string, rows: readonly unknown[], textChars: number): void {
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
