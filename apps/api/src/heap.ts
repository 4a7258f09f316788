import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last full collection before it
 * collects again, in percent: 50 makes the next collection come at 1.5 times the live set.
 *
 * V8 picks that factor itself, up to 4 on a machine with memory to spare. Under this service's
 * load the live set is 30–60 MB and request state is promoted at a steady rate (a create waits
 * for its group commit), so the heap swung up to about 140 MB between full collections, and the
 * process kept the pages of the highest swing: 315 MB resident at the peak of the benchmark's
 * soak where 231 MB do. Full collections come about twice as often instead, each as cheap as
 * before (they trace the live set, not the garbage); per-request CPU did not move beyond the
 * noise (docs/performance.md).
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * The young generation's cap that `npm start`, the container image and the benchmark pass on the
 * command line: semi-spaces of 16 MB, the young generation at most 32 MB. Node 20 uses it by
 * default; from Node 22, V8 sizes it by the machine's memory (64 MB semi-spaces on a 24 GB
 * machine), which added about 100 MB resident on Node 24 without saving CPU. A V8 flag like this
 * one only acts when the heap is set up, so it cannot be set from here.
 */
export const YOUNG_GENERATION_FLAG = '--max-semi-space-size=16';

/**
 * Sets V8's heap growing factor for this process, unless the command line already chose one
 * (`node --heap-growing-percent=…`; 0 restores V8's own choice). V8 reads the flag at each full
 * collection, so setting it at start-up takes effect. Returns whether it set the flag.
 */
export function boundHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return false;
  setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
