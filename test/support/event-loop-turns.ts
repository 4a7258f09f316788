import { setImmediate } from 'node:timers/promises';

/**
 * Turns of the event loop while `work` runs: 0 when it holds the thread to the end. Each call
 * counts on a chain of its own that stops at its first turn after `work` settles, so a count
 * never includes a chain left running by an earlier call.
 */
export async function eventLoopTurnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let counting = true;
  const chain = (async () => {
    while (counting) {
      await setImmediate();
      if (counting) turns += 1;
    }
  })();
  try {
    await work();
  } finally {
    counting = false;
    await chain;
  }
  return turns;
}
