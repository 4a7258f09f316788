import fc from 'fast-check';
import { WriteOp } from '../ports/read-model.port';
import { coalesce } from './coalesce';

/**
 * The stores' semantics of a batch, as a reference: documents by collection and id; a put
 * replaces, a merge sets fields in place or appends them (undefined removes), deleteWhere removes
 * the matching documents of a workspace. JSON text is compared, so field order counts.
 */
function applyAll(ops: WriteOp[]): string {
  const collections = new Map<string, Map<string, { ws: string | null; seq: number; version: number; doc: string }>>();
  const of = (name: string) => collections.get(name) ?? collections.set(name, new Map()).get(name)!;
  for (const op of ops) {
    const docs = of(op.collection);
    switch (op.op) {
      case 'put':
        docs.set(op.id, { ws: op.workspaceId, seq: op.seq, version: op.version ?? 0, doc: JSON.stringify(op.doc) });
        break;
      case 'merge': {
        const current = docs.get(op.id);
        if (!current) break;
        const doc = JSON.parse(current.doc) as Record<string, unknown>;
        for (const key of Object.keys(op.set)) {
          if (op.set[key] === undefined) delete doc[key];
          else doc[key] = op.set[key];
        }
        docs.set(op.id, { ...current, version: op.version ?? current.version, doc: JSON.stringify(doc) });
        break;
      }
      case 'delete':
        docs.delete(op.id);
        break;
      case 'deleteWhere':
        for (const [id, entry] of docs) {
          const doc = JSON.parse(entry.doc) as Record<string, unknown>;
          if (entry.ws === op.workspaceId && Object.entries(op.where).every(([k, v]) => doc[k] === v)) docs.delete(id);
        }
        break;
    }
  }
  return JSON.stringify(
    [...collections]
      .filter(([, docs]) => docs.size > 0)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, docs]) => [name, [...docs].sort(([a], [b]) => a.localeCompare(b))]),
  );
}

const collection = fc.constantFrom('a', 'b');
const id = fc.constantFrom('x', 'y', 'z');
const field = fc.constantFrom('f', 'g', 'h', 'status');
const value = fc.oneof(
  fc.constantFrom('p', 'q'),
  fc.integer({ min: 0, max: 3 }),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant({ n: [1] }),
);
const fields = fc.dictionary(field, value, { maxKeys: 3 });
const op: fc.Arbitrary<WriteOp> = fc.oneof(
  fc.record({
    op: fc.constant('put' as const),
    collection,
    id,
    workspaceId: fc.constant('w'),
    seq: fc.nat(9),
    version: fc.option(fc.nat(9), { nil: undefined }),
    doc: fields,
  }),
  fc.record({
    op: fc.constant('merge' as const),
    collection,
    id,
    version: fc.option(fc.nat(9), { nil: undefined }),
    set: fields,
  }),
  fc.record({ op: fc.constant('delete' as const), collection, id }),
  fc.record({
    op: fc.constant('deleteWhere' as const),
    collection,
    workspaceId: fc.constant('w'),
    where: fc.record({ status: fc.constantFrom('p', 'q') }),
  }),
);

describe('coalesce', () => {
  it('gives the same documents, field order included, as applying every op in order', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const copy = JSON.parse(
          JSON.stringify(ops, (_k, v) => (v === undefined ? '__undef' : v)),
          (_k, v) => (v === '__undef' ? undefined : v),
        );
        expect(applyAll(coalesce(ops))).toBe(applyAll(ops));
        // The ops given are left as they were.
        expect(ops).toEqual(copy);
      }),
      { numRuns: 3000 },
    );
  });

  it('writes a document created and updated in one batch once', () => {
    const ops: WriteOp[] = [
      {
        op: 'put',
        collection: 'projects',
        id: 'p1',
        workspaceId: 'w',
        seq: 1,
        version: 0,
        doc: { id: 'p1', name: 'a', status: 'planned' },
        at: 1,
      },
      {
        op: 'put',
        collection: 'projects',
        id: 'p2',
        workspaceId: 'w',
        seq: 2,
        version: 0,
        doc: { id: 'p2', name: 'b' },
        at: 2,
      },
      { op: 'merge', collection: 'projects', id: 'p1', version: 1, set: { name: 'a2', updated: 3 }, at: 3 },
      { op: 'merge', collection: 'projects', id: 'p1', version: 2, set: { status: 'completed' }, at: 4 },
    ];
    expect(coalesce(ops)).toEqual([
      {
        op: 'put',
        collection: 'projects',
        id: 'p1',
        workspaceId: 'w',
        seq: 1,
        version: 2,
        doc: { id: 'p1', name: 'a2', status: 'completed', updated: 3 },
        at: 4,
      },
      ops[1],
    ]);
  });

  it('does not fold across a deleteWhere of the same collection', () => {
    const ops: WriteOp[] = [
      { op: 'put', collection: 'a', id: 'x', workspaceId: 'w', seq: 1, doc: { status: 'p' } },
      { op: 'deleteWhere', collection: 'a', workspaceId: 'w', where: { status: 'p' } },
      { op: 'merge', collection: 'a', id: 'x', set: { status: 'q' } },
    ];
    expect(coalesce(ops)).toEqual(ops);
  });
});
