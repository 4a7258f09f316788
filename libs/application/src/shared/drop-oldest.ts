/**
 * Bounds a Map or Set used as a cache whose oldest entry (in insertion order) goes first: past
 * `max` entries, the oldest go, a sixteenth of `max` more than needed, in one pass. After the
 * call it holds at most `max`.
 *
 * Why not one at a time (`delete(keys().next().value)`): V8 leaves a deleted entry's slot in
 * place until the table is rebuilt, and every new iterator starts at the first slot, stepping over
 * every slot deleted since. A cache trimmed one entry per insert has thousands of such slots at
 * its front, and each trim walks over all of them; one pass per batch steps over them once.
 */
export function dropOldest(entries: Map<unknown, unknown> | Set<unknown>, max: number): void {
  if (entries.size <= max) return;
  let excess = entries.size - max + (max >> 4);
  for (const key of entries.keys()) {
    if (excess-- === 0) break;
    entries.delete(key);
  }
}
