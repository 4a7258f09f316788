#!/usr/bin/env node
// `npm start` on a fresh clone must just work: compile when dist/ is missing or older than
// any source file (TypeScript, and the dashboard's templates, styles and scripts the build
// copies), otherwise start at once.
const { execSync } = require('node:child_process');
const { chmodSync, existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
// tsc --incremental leaves unchanged outputs untouched, so the build writes its own stamp.
const marker = join(root, 'dist', '.build-stamp');
if (process.argv.includes('--stamp')) {
  // The package's commands (`bin`: workspace-ops) are run as programs, through their shebang:
  // tsc writes them without the execute bit, which npm sets only on installing a dependency.
  for (const command of Object.values(require(join(root, 'package.json')).bin ?? {})) {
    chmodSync(join(root, command), 0o755);
  }
  writeFileSync(marker, new Date().toISOString());
  process.exit(0);
}

const SOURCE = /\.(ts|js|eta|css)$/;

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else if (SOURCE.test(entry.name)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

const sources = Math.max(
  newest(join(root, 'apps')),
  newest(join(root, 'libs')),
  ...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => statSync(join(root, f)).mtimeMs),
);
const entry = join(root, 'dist', 'apps', 'api', 'src', 'main.js');
if (!existsSync(marker) || !existsSync(entry) || statSync(marker).mtimeMs < sources) {
  process.stderr.write('Building (sources changed since the last build)...\n');
  // The build's output goes to stderr: stdout is the command's own (an export piped to a file).
  execSync('npm run build', { cwd: root, stdio: ['ignore', 2, 2] });
}
