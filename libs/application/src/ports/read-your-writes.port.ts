export const READ_YOUR_WRITES = Symbol('ReadYourWrites');

/** Lets a write wait until the read models show it (the projection engine implements it). */
export interface ReadYourWrites {
  /** Resolves true once every projection has applied `position`, false if that took too long. */
  waitFor(position: number): Promise<boolean>;
}
