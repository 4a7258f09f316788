/**
 * Waits for `promise`, but no longer than `ms`; the timer is cleared either way. Resolves true when
 * the promise resolved in time, false when the time ran out first; a rejection passes through.
 */
export async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
