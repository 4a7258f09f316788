import { validationError } from '@app/domain';
import { millisMessage, parseMillis } from './query-params';

export const AS_OF_MESSAGE = millisMessage('as_of');

/** `?as_of=<ms>` of temporal reads: absent, or a Unix time in milliseconds (given once). */
export function parseAsOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw validationError(AS_OF_MESSAGE);
  return parseMillis('as_of', raw);
}
