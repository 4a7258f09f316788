import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readOrCreateSharedFile } from '@app/infrastructure/fs';
import type { AppConfig, ParsedConfig } from './config';

/** Where the admin token is kept when ADMIN_TOKEN is not set (docs/operator-contract.md). */
export const ADMIN_TOKEN_FILE = 'admin-token';

export function adminTokenFile(dataDir: string): string {
  return join(dataDir, ADMIN_TOKEN_FILE);
}

/**
 * The start-up step before the service is built (main.ts): DATA_DIR is created, and the admin
 * token settled. ADMIN_TOKEN wins; otherwise the token saved in DATA_DIR; otherwise a new one is
 * generated and saved (owner-only permissions), and `adminTokenGenerated` says so, so that it is
 * printed exactly once. Created atomically: processes starting together on one empty DATA_DIR
 * agree on one token, and only the one that made it prints it.
 */
export function prepareDataDir(parsed: ParsedConfig): { config: AppConfig; adminTokenGenerated: boolean } {
  mkdirSync(parsed.dataDir, { recursive: true });
  if (parsed.adminToken) return { config: { ...parsed, adminToken: parsed.adminToken }, adminTokenGenerated: false };
  const { value, created } = readOrCreateSharedFile(
    adminTokenFile(parsed.dataDir),
    () => `adm_${randomBytes(32).toString('base64url')}`,
  );
  return { config: { ...parsed, adminToken: value }, adminTokenGenerated: created };
}
