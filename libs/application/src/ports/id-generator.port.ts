export const ID_GENERATOR = Symbol('IdGenerator');
export interface IdGenerator {
  /** An opaque identifier with a readable prefix, e.g. `prj_3kT9...`. */
  next(prefix: string): string;
  /** The same identifier for the same prefix and seed, unguessable without the seed. */
  derive(prefix: string, seed: string): string;
}
