import { WriteOp } from '../ports/read-model.port';

type PutOp = Extract<WriteOp, { op: 'put' }>;
type MergeOp = Extract<WriteOp, { op: 'merge' }>;

/**
 * Folds the writes of one batch that hit the same document into one write per document, so a
 * batch writes each row once: a merge into a document put earlier in the batch becomes part of
 * that put, consecutive merges become one, a merge after a delete is dropped (it would find no
 * document), and a put or delete makes earlier writes to its document moot. `deleteWhere` is a
 * barrier for its collection: nothing is folded across it.
 *
 * Applying the result in order gives exactly the documents that applying `ops` in order gives,
 * field order included (a field removed and set again moves to the end, as it does in the
 * stores), which is all the batch's transaction shows. Ops are never mutated: folded ones are new
 * objects. Rebuilds and catch-ups profit most, as one replay batch often holds a document's
 * creation together with its first updates; a live batch usually has nothing to fold.
 */
export function coalesce(ops: WriteOp[]): WriteOp[] {
  if (ops.length < 2) return ops;
  const out: (WriteOp | null)[] = [];
  /** Per collection: document id -> index in `out` of the last write to it. */
  const last = new Map<string, Map<string, number>>();
  let folded = 0;
  for (const op of ops) {
    if (op.op === 'deleteWhere') {
      last.delete(op.collection);
      out.push(op);
      continue;
    }
    let ids = last.get(op.collection);
    if (!ids) last.set(op.collection, (ids = new Map()));
    const at = ids.get(op.id);
    const previous = at === undefined ? null : out[at];
    if (op.op === 'merge' && previous) {
      const combined = fold(previous, op);
      if (combined !== undefined) {
        out[at!] = combined;
        folded += 1;
        continue;
      }
    } else if (previous) {
      // A put replaces the document and a delete removes it: what came before cannot show.
      out[at!] = null;
      folded += 1;
    }
    ids.set(op.id, out.push(op) - 1);
  }
  return folded === 0 ? ops : (out.filter((op) => op !== null) as WriteOp[]);
}

/**
 * `merge` applied after `previous` (a write to the same document) as one write (`previous` itself
 * when the merge has no effect), or undefined when the two cannot be expressed as one.
 */
function fold(previous: WriteOp, merge: MergeOp): WriteOp | undefined {
  switch (previous.op) {
    case 'delete':
      // A merge into a missing document leaves it missing.
      return previous;
    case 'put':
      return {
        ...previous,
        doc: mergeFields(previous.doc, merge.set),
        version: merge.version ?? previous.version,
        at: merge.at ?? previous.at,
      } satisfies PutOp;
    case 'merge': {
      // A field the first merge removes and the second sets again moves to the end of the
      // document; one merge could not say that, so such a pair stays two writes.
      for (const key of Object.keys(merge.set)) {
        if (
          merge.set[key] !== undefined &&
          Object.prototype.hasOwnProperty.call(previous.set, key) &&
          previous.set[key] === undefined
        ) {
          return undefined;
        }
      }
      return {
        ...previous,
        set: { ...previous.set, ...merge.set },
        version: merge.version ?? previous.version,
        at: merge.at ?? previous.at,
      } satisfies MergeOp;
    }
    default:
      return undefined;
  }
}

/**
 * The document after a merge, as the stores make it: set fields in place or appended, undefined
 * ones removed (a stored document never holds an undefined field, so one set later is appended).
 */
function mergeFields(doc: Record<string, unknown>, set: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...doc };
  for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
  for (const key of Object.keys(set)) {
    if (set[key] === undefined) delete next[key];
    else next[key] = set[key];
  }
  return next;
}
