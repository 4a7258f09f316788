import { createHash, createPublicKey, verify as verifySignature } from 'node:crypto';
import { SignedHead } from '../ports/ledger-store.port';
import { exportedLeafHash, ExportedLeafLine, ExportHeader } from './ledger';
import { Frontier, headSigningText } from './merkle';

/*
 * The offline verifier of `audit verify` (docs/ledger.md, "Verifying step by step"): an export
 * and saved heads in, a verdict out. No network, no service, no framework: node:crypto and the
 * tree functions of merkle.ts.
 */

/** The lines npm's `run` writes before a script's own output: a blank line and two `> ` lines. */
const NPM_BANNER_LINES = 3;

export interface AuditReport {
  ok: boolean;
  /** Lines for the operator, in the order found. */
  lines: string[];
  /** The position of the first event that does not match, when one was found. */
  firstMismatchPosition: number | null;
  /** Heads (sizes) found not consistent with each other. */
  inconsistentHeads: [number, number] | null;
}

/** key_id of a raw Ed25519 public key: hex of the first 8 bytes of its SHA-256. */
export function ledgerKeyId(rawPublicKey: Buffer): string {
  return createHash('sha256').update(rawPublicKey).digest().subarray(0, 8).toString('hex');
}

/** The raw 32-byte key from a file holding its base64, or a PEM public key. */
export function parsePublicKey(text: string): Buffer {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) {
    const der = createPublicKey(trimmed).export({ format: 'der', type: 'spki' });
    return Buffer.from(der.subarray(der.length - 32));
  }
  const fromJson = /^\{/.test(trimmed) ? (JSON.parse(trimmed) as { public_key?: string }).public_key : undefined;
  const raw = Buffer.from(fromJson ?? trimmed, 'base64');
  if (raw.length !== 32) throw new Error('The public key is neither PEM nor base64 of 32 raw bytes');
  return raw;
}

/** SPKI prefix of an Ed25519 public key (RFC 8410): followed by the 32 raw bytes. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export function headSignatureValid(head: SignedHead, rawPublicKey: Buffer): boolean {
  try {
    const key = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, rawPublicKey]),
      format: 'der',
      type: 'spki',
    });
    return verifySignature(
      null,
      Buffer.from(headSigningText(head), 'utf8'),
      key,
      Buffer.from(head.signature, 'base64'),
    );
  } catch {
    return false;
  }
}

function isHead(value: unknown): value is SignedHead {
  const h = value as SignedHead;
  return (
    typeof h === 'object' &&
    h !== null &&
    Number.isSafeInteger(h.size) &&
    h.size >= 0 &&
    typeof h.root === 'string' &&
    typeof h.signed_at === 'string' &&
    typeof h.key_id === 'string' &&
    typeof h.signature === 'string'
  );
}

/** A head as saved from `POST /v1/admin/ledger/heads` (the JSON answer, or one of `GET heads`' items). */
export function parseHead(text: string, name: string): SignedHead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${name} is not JSON`);
  }
  if (!isHead(value)) throw new Error(`${name} is not a signed head ({ size, root, signed_at, key_id, signature })`);
  return value;
}

/**
 * Checks an export against heads: each event's leaf recomputed from its stored bytes (and
 * compared with the leaf the ledger recorded for it, when the export carries it), the root at
 * each head's size, each head's signature, and that the heads are prefixes of one another.
 */
export async function verifyAudit(
  exportLines: AsyncIterable<string>,
  heads: { name: string; head: SignedHead }[],
  publicKey: Buffer | null,
): Promise<AuditReport> {
  const lines: string[] = [];
  let ok = true;
  let firstMismatchPosition: number | null = null;
  let inconsistentHeads: [number, number] | null = null;
  const fail = (line: string) => {
    ok = false;
    lines.push(line);
  };

  const sorted = heads.slice().sort((a, b) => a.head.size - b.head.size);
  const wanted = new Map<number, string>(); // size -> root the export gives
  for (const { head } of sorted) wanted.set(head.size, '');

  const frontier = Frontier.empty();
  let header: ExportHeader | null = null;
  let lineNo = 0;
  let lastPosition = 0;
  if (wanted.has(0)) wanted.set(0, frontier.root().toString('hex'));
  for await (const raw of exportLines) {
    lineNo += 1;
    if (raw.trim() === '') continue;
    // `npm run cli -- events export --all > FILE`, the operator contract's command, has npm write
    // its script banner (`> package@version cli`, `> command`) into FILE before the export.
    if (lineNo <= NPM_BANNER_LINES && header === null && frontier.size === 0 && raw.startsWith('> ')) continue;
    let value: ExportHeader | ExportedLeafLine;
    try {
      value = JSON.parse(raw);
    } catch {
      fail(`export line ${lineNo} is not JSON`);
      break;
    }
    if ((value as ExportHeader).ledger_export !== undefined) {
      header = value as ExportHeader;
      continue;
    }
    const event = value as ExportedLeafLine;
    const index = frontier.size;
    if (event.leaf_index !== index) {
      firstMismatchPosition ??= event.position;
      fail(
        `position ${event.position}: leaf index ${event.leaf_index} where ${index} was expected (an event missing or added before it)`,
      );
    }
    if (typeof event.position !== 'number' || event.position <= lastPosition) {
      firstMismatchPosition ??= event.position;
      fail(`position ${event.position}: not after the previous event's position ${lastPosition} (order changed)`);
    }
    lastPosition = event.position;
    const recomputed = exportedLeafHash(event);
    if (!recomputed) {
      firstMismatchPosition ??= event.position;
      fail(`position ${event.position} (event ${event.id}): its stored data does not hash to its data_sha256`);
    }
    const hash = recomputed ?? Buffer.alloc(32);
    if (event.ledger_leaf_hash && event.ledger_leaf_hash !== hash.toString('hex') && firstMismatchPosition === null) {
      firstMismatchPosition = event.position;
      fail(
        `position ${event.position} (leaf ${index}, event ${event.id}): its stored bytes do not hash to the leaf the ledger recorded for it`,
      );
    }
    frontier.append(hash);
    if (wanted.has(frontier.size)) wanted.set(frontier.size, frontier.root().toString('hex'));
  }
  const exported = frontier.size;
  lines.push(`export: ${exported} events, root ${frontier.root().toString('hex')}`);

  let key = publicKey;
  if (!key && header) {
    key = Buffer.from(header.public_key, 'base64');
    lines.push(
      'signatures checked against the public key inside the export: this only shows the export and the heads agree with each other; pass --public-key with a key obtained independently to check who signed',
    );
  }
  if (!key) fail('no public key: pass --public-key FILE');
  const keyId = key ? ledgerKeyId(key) : null;

  const matches = new Map<string, boolean>();
  for (const { name, head } of sorted) {
    const label = `head ${name} (size ${head.size})`;
    if (key) {
      if (head.key_id !== keyId) fail(`${label}: signed by key ${head.key_id}, not by the given key ${keyId}`);
      else if (!headSignatureValid(head, key)) fail(`${label}: the signature does not verify`);
    }
    if (head.size > exported) {
      fail(`${label}: larger than the export (${exported} events): events were dropped after it was signed`);
      matches.set(name, false);
      continue;
    }
    const root = wanted.get(head.size);
    const good = root === head.root;
    matches.set(name, good);
    if (good) lines.push(`${label}: root matches the export's first ${head.size} events`);
    else
      fail(
        `${label}: root ${head.root} differs from ${root} computed over the export's first ${head.size} events: events before it were changed, dropped or reordered`,
      );
  }

  // Each head against every larger one: the older tree must be a prefix of the newer.
  for (let i = 0; i < sorted.length && !inconsistentHeads; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i];
      const b = sorted[j];
      const sameSizeDiffer = a.head.size === b.head.size && a.head.root !== b.head.root;
      if (sameSizeDiffer || matches.get(a.name) !== matches.get(b.name)) {
        inconsistentHeads = [a.head.size, b.head.size];
        fail(
          `heads ${a.name} (size ${a.head.size}) and ${b.name} (size ${b.head.size}) are not consistent: the history under the older one is not a prefix of the newer one`,
        );
        break;
      }
    }
  }
  if (firstMismatchPosition !== null) lines.push(`first event that does not match: position ${firstMismatchPosition}`);
  lines.push(ok ? 'verified' : 'NOT verified');
  return { ok, lines, firstMismatchPosition, inconsistentHeads };
}
