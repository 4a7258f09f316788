import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { digestOf, IMMUTABLE, StaticFile, staticFile } from '../openapi/static-file';

/**
 * Where the dashboard's templates and assets are: beside this file, in the sources (`ts-node`,
 * jest) and in the build alike, as the build copies them next to the compiled file
 * (scripts/copy-dashboard-files.js).
 */
export const DASHBOARD_VIEWS_DIR = join(__dirname, 'views');
export const DASHBOARD_ASSETS_DIR = join(__dirname, 'assets');

/** The assets, by the name they are served under (`/dashboard/assets/<name>`). */
const ASSETS: Record<string, string> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
};

export interface DashboardAssets {
  files: Map<string, StaticFile>;
  /** The URL of each asset, with a digest of its content: cached for good, replaced when it changes. */
  urls: { css: string; js: string };
}

let loaded: DashboardAssets | undefined;

/** The assets, read once per process and kept in memory. No static-file plugin, no directory served. */
export function dashboardAssets(): DashboardAssets {
  if (loaded) return loaded;
  const files = new Map<string, StaticFile>();
  const url = (name: string, body: Buffer) => `/dashboard/assets/${name}?v=${digestOf(body)}`;
  const urls = { css: '', js: '' };
  for (const [name, type] of Object.entries(ASSETS)) {
    const body = readFileSync(join(DASHBOARD_ASSETS_DIR, name));
    files.set(name, staticFile(body, type, IMMUTABLE));
    if (name.endsWith('.css')) urls.css = url(name, body);
    else urls.js = url(name, body);
  }
  loaded = { files, urls };
  return loaded;
}
