/**
 * Stands for whatever `current()` answers at the moment it is used, so that a value a hook sets
 * (a service started in `beforeAll`, a store opened in `beforeEach`) can be named once where the
 * suite is declared. Its methods are bound to that value.
 */
export function lateBound<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
