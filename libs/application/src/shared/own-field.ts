/**
 * Sets `key` on `target` as an own field: by assignment (cheap, the common case), except for a
 * `__proto__` key, whose assignment would replace the prototype: such a key, from parsed JSON,
 * stays a plain own data property, as `Object.fromEntries` or `defineProperty` would make it.
 */
export function setOwnField(target: object, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
}
