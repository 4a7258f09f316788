import { createHash } from 'node:crypto';
import {
  consistencyPath,
  EMPTY_ROOT,
  eventLeafHash,
  Frontier,
  Hash,
  inclusionPath,
  leafBytes,
  leafHash,
  rootOf,
  verifyConsistency,
  verifyInclusion,
} from './merkle';

const leaves = (n: number) => Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`leaf ${i}`)));
const over = (hashes: Hash[]) => async (start: number, end: number) => rootOf(hashes.slice(start, end));

describe('merkle (RFC 9162 2.1)', () => {
  it('roots the empty tree at SHA-256 of nothing, and a frontier rebuilt from its subtrees continues the same tree', () => {
    expect(EMPTY_ROOT.equals(createHash('sha256').digest())).toBe(true);
    const hashes = leaves(21);
    const frontier = Frontier.empty();
    hashes.slice(0, 13).forEach((h) => frontier.append(h));
    const resumed = Frontier.of(frontier.size, frontier.subtrees);
    hashes.slice(13).forEach((h) => resumed.append(h));
    expect(resumed.root().equals(rootOf(hashes))).toBe(true);
    expect(() => Frontier.of(13, [])).toThrow('A frontier of 13 leaves has 3 subtrees, not 0');
  });

  it('hashes an event leaf in one buffer exactly as leafHash(leafBytes(event))', () => {
    const event = {
      position: 42,
      streamId: 'project-é',
      revision: 3,
      id: 'ev',
      type: 't',
      schemaVersion: 2,
      data: Buffer.from('{"a":1}'),
      metadata: Buffer.from(''),
    };
    expect(eventLeafHash(event).equals(leafHash(leafBytes(event)))).toBe(true);
  });

  it('verifies its own inclusion and consistency proofs for every leaf and size up to 20, and refuses altered ones', async () => {
    for (let n = 1; n <= 20; n++) {
      const hashes = leaves(n);
      const root = rootOf(hashes);
      for (let m = 0; m < n; m++) {
        const path = await inclusionPath(m, n, over(hashes));
        expect(verifyInclusion(m, n, hashes[m], path, root)).toBe(true);
        expect(verifyInclusion(m, n, leafHash(Buffer.from('x')), path, root)).toBe(false);
      }
      for (let m = 1; m <= n; m++) {
        const proof = await consistencyPath(m, n, over(hashes));
        const first = rootOf(hashes.slice(0, m));
        expect(verifyConsistency(m, n, first, root, proof)).toBe(true);
        if (m < n) expect(verifyConsistency(m, n, EMPTY_ROOT, root, proof)).toBe(false);
      }
    }
  });
});
