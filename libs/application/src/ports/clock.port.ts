export const CLOCK = Symbol('Clock');
export interface Clock {
  now(): number;
}
export const systemClock: Clock = { now: () => Date.now() };
