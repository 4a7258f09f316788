import { validationError } from '@app/domain';
import { StoredDocument } from '../ports/read-model.port';

/** Lists return at most this many items a page (docs/api.md, Conventions: "up to 50 items per page"). */
export const PAGE_SIZE = 50;
export const INVALID_CURSOR = 'cursor is invalid';

/**
 * Cursors are opaque to clients: the base64url of the last `seq` seen, tagged so that a
 * cursor from another list or a hand-made string is refused rather than misread.
 */
export function encodeCursor(seq: number): string {
  return Buffer.from(`c1:${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 64 || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw validationError(INVALID_CURSOR);
  }
  const match = /^c1:(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw validationError(INVALID_CURSOR);
  return Number(match[1]);
}

export interface Page<T> {
  items: T[];
  cursor: string | null;
}

/** `found` was fetched with limit PAGE_SIZE + 1: the extra item only says that more exist. */
export function toPage<T>(found: StoredDocument<T>[], size = PAGE_SIZE): Page<T> {
  const items = found.slice(0, size);
  const more = found.length > size;
  return { items: items.map((d) => d.doc), cursor: more ? encodeCursor(items[items.length - 1].seq) : null };
}
