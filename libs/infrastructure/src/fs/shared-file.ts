import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface SharedFile {
  /** The file's content, trimmed: the same in every process that read or created it. */
  value: string;
  /** Whether this call made the file (so a secret can be shown once, by the process that made it). */
  created: boolean;
}

/**
 * Reads a small file that every process of a deployment shares (the admin token, the webhook
 * secret key in DATA_DIR), or creates it with `make()` when it does not exist yet, so that
 * processes starting together on one empty DATA_DIR all end up with the same value.
 *
 * Why not `existsSync` then `writeFileSync`: two processes both see "absent", both write, and
 * each keeps its own value (one of them then fails every token check or cannot open secrets the
 * other sealed). Why not `writeFileSync(file, value, { flag: 'wx' })` alone: the exclusive create
 * happens before the bytes are written, so a process that lost the race may read the file while
 * it is still empty. Here the content is written and fsynced to a private temporary file first,
 * then published with `link()`, which creates the name atomically and fails with EEXIST when it
 * exists: the name never points at a partial file, and exactly one process wins. Everyone then
 * reads the one file.
 */
export function readOrCreateSharedFile(file: string, make: () => string, mode = 0o600): SharedFile {
  const existing = readIfExists(file);
  if (existing !== null) return { value: existing, created: false };

  const value = make().trim();
  if (value.length === 0) throw new Error(`Refusing to create ${file} empty`);
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', mode);
  try {
    writeSync(fd, `${value}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  let created = false;
  try {
    linkSync(temp, file);
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
  if (created) syncDirectory(dirname(file));
  const stored = readIfExists(file);
  if (stored === null) throw new Error(`${file} vanished right after it was created`);
  // When another process won the race, its value is the deployment's and ours is discarded.
  return { value: stored, created };
}

function readIfExists(file: string): string | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    // Only a file made by an older release's non-atomic write can be empty; treat it as corrupt.
    if (text.length === 0) throw new Error(`${file} is empty: delete it (or restore it) and start again`);
    return text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The new directory entry survives a power cut too (best effort: not every file system allows it). */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // e.g. EISDIR/EPERM on some platforms: the entry is still there, just not forced to disk yet.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
