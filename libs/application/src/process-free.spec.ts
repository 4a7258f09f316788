import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The dependency rules (.dependency-cruiser.js, `core-knows-no-process-or-host`) keep `node:os`,
 * `node:process` and `node:child_process` out of the domain and application layers, but the
 * `process` global needs no import: this spec finds it in their sources (comments aside). Process
 * and host concerns go through the ProcessHost port instead.
 */
const ROOTS = [join(__dirname), join(__dirname, '../../domain/src')];
const GLOBAL_USE = /\b(?:globalThis\s*\.\s*)?process\s*(?:\.|\[)/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** The code of a file without its comments (string contents are kept: a false alarm is cheap). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

describe('the domain and application layers know no process or host', () => {
  it('finds their sources (the scan is not vacuous)', () => {
    for (const root of ROOTS) expect(sources(root).length).toBeGreaterThan(10);
  });

  it('use no `process` global', () => {
    const offenders = ROOTS.flatMap(sources).filter((file) =>
      GLOBAL_USE.test(withoutComments(readFileSync(file, 'utf8'))),
    );
    expect(offenders.map((file) => relative(join(__dirname, '../..'), file))).toEqual([]);
  });

  it('would catch one', () => {
    expect(GLOBAL_USE.test(withoutComments('const a = 1; // process.exit is fine here\nprocess.kill(1, 0);'))).toBe(
      true,
    );
    expect(GLOBAL_USE.test(withoutComments('/** once per process. */ const b = 2; // process.pid'))).toBe(false);
  });
});
