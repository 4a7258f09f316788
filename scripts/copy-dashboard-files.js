#!/usr/bin/env node
// The dashboard's templates and assets are not TypeScript, so tsc does not emit them: the build
// copies them next to the compiled dashboard (dist/apps/api/src/dashboard), where it finds them.
const { cpSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const from = join(root, 'apps', 'api', 'src', 'dashboard');
const to = join(root, 'dist', 'apps', 'api', 'src', 'dashboard');
for (const folder of ['views', 'assets']) {
  rmSync(join(to, folder), { recursive: true, force: true });
  cpSync(join(from, folder), join(to, folder), { recursive: true });
}
