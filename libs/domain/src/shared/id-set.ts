/** Sorted ids. */
type Leaf = readonly string[];
type Inner = readonly Leaf[];
type Root = readonly Inner[];

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;
const EMPTY_INNER: Inner = Array.from({ length: WIDTH }, () => []);

/**
 * An immutable set of string ids for aggregate states, which must never be changed in place (a
 * state held in memory is the fold of its stream up to a revision, and a command decided on it
 * may be thrown away). Copying a plain `Set` per event would make a fold quadratic in the set's
 * size; this one is a two-level hash trie of 32 × 32 sorted leaves, and a change copies one path:
 * two arrays of 32 references and one leaf (a 1,024th of the ids, on average).
 *
 * Its shape depends on its ids alone, not on the order they came and went in, so two states
 * holding the same ids are deeply equal however each was reached: by a fold, or from a snapshot.
 */
export class IdSet {
  private constructor(
    private readonly root: Root,
    readonly size: number,
  ) {}

  static readonly empty: IdSet = new IdSet(
    Array.from({ length: WIDTH }, () => EMPTY_INNER),
    0,
  );

  static of(ids: Iterable<string>): IdSet {
    let set = IdSet.empty;
    for (const id of new Set(ids)) set = set.add(id);
    return set;
  }

  has(id: string): boolean {
    const h = hash(id);
    return indexIn(this.root[h & MASK][(h >>> BITS) & MASK], id) >= 0;
  }

  /** This set with `id` (this very set when it holds it already). */
  add(id: string): IdSet {
    const h = hash(id);
    const i = h & MASK;
    const j = (h >>> BITS) & MASK;
    const leaf = this.root[i][j];
    const at = indexIn(leaf, id);
    if (at >= 0) return this;
    const next = leaf.slice();
    next.splice(~at, 0, id);
    return new IdSet(this.replaced(i, j, next), this.size + 1);
  }

  /** This set without `id` (this very set when it does not hold it). */
  delete(id: string): IdSet {
    const h = hash(id);
    const i = h & MASK;
    const j = (h >>> BITS) & MASK;
    const leaf = this.root[i][j];
    const at = indexIn(leaf, id);
    if (at < 0) return this;
    const next = leaf.slice();
    next.splice(at, 1);
    return new IdSet(this.replaced(i, j, next), this.size - 1);
  }

  /** The ids, sorted. */
  values(): string[] {
    return this.root.flatMap((inner) => inner.flat()).sort();
  }

  /** As JSON: the sorted ids. */
  toJSON(): string[] {
    return this.values();
  }

  private replaced(i: number, j: number, leaf: Leaf): Root {
    const inner = this.root[i].slice();
    inner[j] = leaf;
    const root = this.root.slice();
    root[i] = inner;
    return root;
  }
}

/** FNV-1a, 32 bits. */
function hash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Where `id` is in the sorted leaf, or `~i` with `i` where it would go. */
function indexIn(leaf: Leaf, id: string): number {
  let low = 0;
  let high = leaf.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    if (leaf[mid] < id) low = mid + 1;
    else if (leaf[mid] > id) high = mid - 1;
    else return mid;
  }
  return ~low;
}
