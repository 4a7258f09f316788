import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { digestOf, IMMUTABLE, StaticFile, staticFile } from '../openapi/static-file';

/**
 * Where the dashboard's templates and assets are: beside this file, in the sources (`ts-node`,
 * jest) and in the build alike, as the build copies them next to the compiled file
 * (scripts/copy-dashboard-files.js).
 */
export const DASHBOARD_VIEWS_DIR = join(__dirname, 'views');
export const DASHBOARD_ASSETS_DIR = join(__dirname, 'assets');

/**
 * Chart.js's browser build (UMD: it defines `window.Chart`), as its package publishes it for a
 * script tag: beside the CommonJS entry point the package resolves to.
 */
const CHART_JS = join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');

/** The assets, by the name they are served under (`/dashboard/assets/<name>`), and where each is read from. */
const ASSETS: Record<string, { type: string; file: string; url: keyof DashboardAssets['urls'] }> = {
  'dashboard.css': { type: 'text/css; charset=utf-8', file: join(DASHBOARD_ASSETS_DIR, 'dashboard.css'), url: 'css' },
  'dashboard.js': {
    type: 'text/javascript; charset=utf-8',
    file: join(DASHBOARD_ASSETS_DIR, 'dashboard.js'),
    url: 'js',
  },
  'chart.js': { type: 'text/javascript; charset=utf-8', file: CHART_JS, url: 'chart' },
};

export interface DashboardAssets {
  files: Map<string, StaticFile>;
  /**
   * The URL of each asset, with a digest of its content: cached for good, replaced when it changes.
   * `chart` is loaded only by pages with a chart.
   */
  urls: { css: string; js: string; chart: string };
}

let loaded: DashboardAssets | undefined;

/** The assets, read once per process and kept in memory. No static-file plugin, no directory served. */
export function dashboardAssets(): DashboardAssets {
  if (loaded) return loaded;
  const files = new Map<string, StaticFile>();
  const url = (name: string, body: Buffer) => `/dashboard/assets/${name}?v=${digestOf(body)}`;
  const urls = { css: '', js: '', chart: '' };
  for (const [name, asset] of Object.entries(ASSETS)) {
    const body = readFileSync(asset.file);
    files.set(name, staticFile(body, asset.type, IMMUTABLE));
    urls[asset.url] = url(name, body);
  }
  loaded = { files, urls };
  return loaded;
}
