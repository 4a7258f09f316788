import { validationError } from '@app/domain';

export const AS_OF_MESSAGE = 'as_of must be a Unix time in milliseconds';

/** `?as_of=<ms>` of temporal reads: absent, or a Unix time in milliseconds. */
export function parseAsOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw)) throw validationError(AS_OF_MESSAGE);
  return Number(raw);
}
