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
