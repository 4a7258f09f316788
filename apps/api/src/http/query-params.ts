import { validationError } from '@app/domain';

/**
 * The one place query parameters are read from what the router hands over (a string, an array when
 * the parameter is repeated, or undefined), so every route answers a repeated parameter alike.
 */

/** A query parameter given twice arrives as an array; this API takes each once. */
export function singleQueryValue(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(`${name} must be given once`);
  return value;
}

/** A `?name=<ms>` parameter: absent or empty, or a Unix time in milliseconds. */
export function queryMillis(name: string, value: unknown): number | undefined {
  const text = singleQueryValue(name, value);
  if (text === undefined || text === '') return undefined;
  if (!/^\d{1,15}$/.test(text)) throw validationError(`${name} must be a Unix time in milliseconds`);
  return Number(text);
}
