import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { backUpEmbeddedStoreFile } from './adapters';

/**
 * `cli backup <directory>`: a copy of DATA_DIR taken while the service runs (docs/operations.md,
 * Backups). Each SQLite file is copied with SQLite's online backup
 * (`backUpEmbeddedStoreFile`): one consistent state of that file. The other files of DATA_DIR,
 * the keys among them, are copied as they are.
 *
 * Order matters between files: what is derived from the events (read models, the delivery queue,
 * idempotency records) is copied before `events.db`, so the copy never holds a checkpoint or a
 * delivery ahead of its events; `keys.db` is copied after it, so every personal datum in the
 * copied events has its key (a key is made before the first event that uses it).
 */

/**
 * `snapshots.db`, a cache that a restore must not bring back beside older events, and the
 * projector's lock (docs/operations.md, Backups).
 */
const NOT_BACKED_UP = new Set(['snapshots.db', 'projector.lock']);
/** SQLite's own side files (of the stores and of the lock): the backup of a database holds what they hold. */
const SQLITE_SIDE_FILE = /-(wal|shm|journal)$/;
/** A shared file being created (libs/infrastructure/src/fs/shared-file.ts): not yet the file. */
const TEMPORARY = /^\..*\.tmp$/;

const FIRST_OF_ALL = 'events.db';
const LAST_OF_ALL = 'keys.db';

export interface BackedUpFile {
  name: string;
  bytes: number;
  how: 'sqlite online backup' | 'copy';
}

/** The order files are copied in: derived data, then the events, then the keys, then the rest. */
function rank(name: string): number {
  if (name === FIRST_OF_ALL) return 1;
  if (name === LAST_OF_ALL) return 2;
  return name.endsWith('.db') ? 0 : 3;
}

/** What a backup of `dataDir` copies, in order. */
export function filesToBackUp(dataDir: string): string[] {
  return readdirSync(dataDir)
    .filter((name) => !NOT_BACKED_UP.has(name) && !SQLITE_SIDE_FILE.test(name) && !TEMPORARY.test(name))
    .filter((name) => statSync(join(dataDir, name)).isFile())
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Backs `dataDir` up into `target`, a directory that does not exist yet or is empty (a backup is
 * never mixed with an older one). Answers what it copied.
 */
export async function backUpDataDir(dataDir: string, target: string): Promise<BackedUpFile[]> {
  if (!existsSync(dataDir)) throw new BackupError(`DATA_DIR ${dataDir} does not exist`);
  if (existsSync(target) && readdirSync(target).length > 0) {
    throw new BackupError(`${target} is not empty: back up into a new directory`);
  }
  mkdirSync(target, { recursive: true, mode: 0o700 });
  const copied: BackedUpFile[] = [];
  for (const name of filesToBackUp(dataDir)) {
    const from = join(dataDir, name);
    const to = join(target, name);
    if (name.endsWith('.db')) await backUpEmbeddedStoreFile(from, to);
    else copyFileSync(from, to);
    copied.push({ name, bytes: statSync(to).size, how: name.endsWith('.db') ? 'sqlite online backup' : 'copy' });
  }
  return copied;
}

export class BackupError extends Error {}
