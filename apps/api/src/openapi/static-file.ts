import { createHash } from 'node:crypto';

/** A response body served as it is, with the headers that let clients and caches keep it. */
export interface StaticFile {
  body: Buffer;
  contentType: string;
  /** Strong entity tag: a digest of the body. */
  etag: string;
  cacheControl: string;
}

/** Revalidate every time (a cheap 304 while unchanged): the document and the page. */
export const REVALIDATE = 'no-cache';
/** Asset URLs carry a digest of their content (`?v=`), so a URL's content never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export const digestOf = (body: Buffer | string) => createHash('sha256').update(body).digest('base64url').slice(0, 22);

export function staticFile(body: Buffer | string, contentType: string, cacheControl: string): StaticFile {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return { body: bytes, contentType, etag: `"${digestOf(bytes)}"`, cacheControl };
}

/** If-None-Match (weak comparison, RFC 9110 13.1.2): true when the list names `etag` or is `*`. */
export function notModified(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const value = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  return value.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
