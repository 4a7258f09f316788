import { Clock } from '../ports/clock.port';

/** The clock of the running service: the wall clock, in epoch milliseconds. */
export const systemClock: Clock = { now: Date.now };
