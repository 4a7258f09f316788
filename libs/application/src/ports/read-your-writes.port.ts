export const READ_YOUR_WRITES = Symbol('ReadYourWrites');

/** What a write needs to see in the read models before it answers. */
export interface ReadScope {
  /** The projections that serve the written resource; absent: every projection. */
  projections?: readonly string[];
  /** The written stream: a dead letter of it in one of those projections means it is not shown. */
  streamId?: string;
}

/**
 * Lets a write wait until the read models show it. The projection engine implements it in the
 * process that runs the projections; the checkpoint poller in one that does not.
 */
export interface ReadYourWrites {
  /**
   * Resolves true once the projections of `scope` have applied `position` and show the stream;
   * false if that took too long, or if one of them parked an event of the stream (a dead letter).
   */
  waitFor(position: number, scope?: ReadScope): Promise<boolean>;
}
