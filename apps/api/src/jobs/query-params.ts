import { validationError } from '@app/domain';

/** A query parameter given twice arrives as an array; this API takes each once. */
export function singleQueryValue(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(`${name} must be given once`);
  return value;
}
