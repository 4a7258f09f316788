import { validationError } from '@app/domain';

/**
 * The one place query parameters are read from what the router hands over (a string, an array when
 * the parameter is repeated, or undefined), so every route answers a repeated parameter alike.
 */

/**
 * A query parameter given twice arrives as an array; this API takes each once. `message` is the
 * refusal where a route documents its own for the parameter.
 */
export function singleQueryValue(
  name: string,
  value: unknown,
  message = `${name} must be given once`,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(message);
  return value;
}

export const millisMessage = (name: string) => `${name} must be a Unix time in milliseconds`;

/** A given `?name=<ms>` value: a Unix time in milliseconds, else a 400 naming the parameter. */
export function parseMillis(name: string, text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw validationError(millisMessage(name));
  return Number(text);
}

/** A `?name=<ms>` parameter: absent or empty, or a Unix time in milliseconds. */
export function queryMillis(name: string, value: unknown): number | undefined {
  const text = singleQueryValue(name, value);
  return text === undefined || text === '' ? undefined : parseMillis(name, text);
}
