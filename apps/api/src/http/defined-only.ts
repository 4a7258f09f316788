/** The fields the client actually sent: DTO instances carry every declared field, unset ones as undefined. */
export function definedOnly<T extends object>(dto: T): T {
  // A loop, not fromEntries over entries and filter: this runs for every create and update, and
  // the chain of arrays cost 3-5 times as much (0.5-1 µs against 0.13-0.18 for a 7-field DTO).
  const source = dto as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (value === undefined) continue;
    // A `__proto__` field stays a field (as fromEntries kept it), never the prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    else out[key] = value;
  }
  return out as T;
}
