/** The fields the client actually sent: DTO instances carry every declared field, unset ones as undefined. */
export function definedOnly<T extends object>(dto: T): T {
  return Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined)) as T;
}
