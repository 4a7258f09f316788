import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The pipeline is only visible in one place if no other file adds a hook behind its back. */
describe('the HTTP pipeline', () => {
  const root = join(__dirname, '..');
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
    });

  it('is the only file of apps/api that registers Fastify hooks', () => {
    const adding = sources(root).filter((file) => /\.addHook\s*\(/.test(readFileSync(file, 'utf8')));
    expect(adding.map((file) => relative(root, file))).toEqual(['http/pipeline.ts']);
  });
});
