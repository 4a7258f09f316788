import type { HttpResult } from './test-app';

/** A change a PATCH sent: the fields it set. */
export type Patch = Record<string, unknown>;

/**
 * Pages through a job's history (`page` answers the page after a cursor, the first for null) and
 * expects every PATCH recorded as one `job.updated` carrying exactly its change: none lost, none
 * merged away. Answers, field by field, the last value the history recorded: what the job must
 * show.
 */
export async function expectEachPatchRecordedOnce(
  page: (cursor: string | null) => Promise<HttpResult>,
  patches: Patch[],
): Promise<Patch> {
  const history: { type: string; change: { changes: Patch } }[] = [];
  let cursor: string | null = null;
  do {
    const res = await page(cursor);
    expect(res.status).toBe(200);
    history.push(...res.body.history);
    cursor = res.body.cursor;
  } while (cursor);
  const updates = history.filter((e) => e.type === 'job.updated').map((e) => e.change.changes);
  const key = (p: Patch) => JSON.stringify(p);
  expect(updates.map(key).sort()).toEqual(patches.map(key).sort());
  const last: Patch = {};
  for (const change of updates) Object.assign(last, change);
  return last;
}
