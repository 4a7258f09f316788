import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * `@nestjs/platform-fastify` 11 pins its own Fastify; the `overrides` entry of package.json makes it
 * use the one we pin (docs/decisions.md, "One Fastify in the process"). Should an upgrade bring a
 * second copy back, the service would again run a Fastify other than the one its types, its
 * baselines and this decision describe.
 */
describe('Fastify', () => {
  it('is one copy: the one NestJS runs is the one the project pins', () => {
    const nest = dirname(require.resolve('@nestjs/platform-fastify/package.json'));
    const nestsFastify = require.resolve('fastify/package.json', { paths: [nest] });
    expect(nestsFastify).toBe(require.resolve('fastify/package.json'));
    const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
    expect(json(nestsFastify).version).toBe(json(join(__dirname, '../../../package.json')).dependencies.fastify);
  });
});
