export const CLOCK = Symbol('Clock');
export interface Clock {
  now(): number;
}
