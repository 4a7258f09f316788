import { ReadYourWrites } from '../ports/read-your-writes.port';
import { CommandContext } from './command-context';

/**
 * Read-your-writes: a write is answered once the read models serving what it wrote show it, so
 * that a GET right after the answer sees the change. Each written stream waits for its own serving
 * projections only (servingProjections, below), never the audit feed and the like.
 *
 * Honest when they do not show it in time (or parked an event of the stream): the write is
 * committed all the same, the answer is `false`, and the projections are added to the request's
 * `consistency.pending`, from which the HTTP adapter answers `X-Read-Consistency: pending`.
 *
 * Answers whether the read models are known to show the write: true when nothing was written
 * (`position` 0), false when the caller chose not to wait.
 */
export async function waitUntilShown(
  readModels: ReadYourWrites,
  write: { position: number; written: readonly string[] },
  context: CommandContext,
  wait = true,
): Promise<boolean> {
  if (write.position === 0) return true;
  if (!wait) return false;
  const shown = await Promise.all(
    write.written.map(async (streamId) => {
      const projections = servingProjections(streamId);
      const visible = await readModels.waitFor(write.position, { projections, streamId });
      if (!visible) context.consistency?.pending.push(...(projections ?? ['all']));
      return visible;
    }),
  );
  return shown.every(Boolean);
}

/**
 * Which projections serve a resource's GET endpoints, by the category of its stream: a write waits
 * for these only (read-your-writes), so a slow or failing projection elsewhere (the audit feed)
 * never holds its answer back. Declared once, here; a stream of no listed category waits for all.
 * Longer prefixes first: `job-type-` before `job-`.
 */
const SERVING: readonly (readonly [prefix: string, projections: readonly string[]])[] = [
  ['workspace-', ['workspaces']],
  ['project-', ['projects']],
  ['job-type-', ['job_types']],
  ['job-', ['jobs']],
  ['webhook-', ['webhooks']],
];

export function servingProjections(streamId: string): readonly string[] | undefined {
  for (const [prefix, projections] of SERVING) if (streamId.startsWith(prefix)) return projections;
  return undefined;
}
