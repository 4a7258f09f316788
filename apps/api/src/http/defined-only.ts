import { setOwnField } from '@app/application';

/** The fields the client actually sent: DTO instances carry every declared field, unset ones as undefined. */
export function definedOnly<T extends object>(dto: T): T {
  // A loop, not fromEntries over entries and filter: this runs for every create and update, and
  // the chain of intermediate arrays costs several times as much.
  const source = dto as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (value !== undefined) setOwnField(out, key, value);
  }
  return out as T;
}
