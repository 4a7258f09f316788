import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { boundHeapGrowth, HEAP_GROWING_PERCENT, YOUNG_GENERATION_FLAG } from './heap';

describe('the heap bounds', () => {
  it('sets the growing factor when the command line chose none', () => {
    const set: string[] = [];
    expect(boundHeapGrowth(['--enable-source-maps'], (flags) => set.push(flags))).toBe(true);
    expect(set).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
  });

  it.each(['--heap-growing-percent=0', '--heap_growing_percent=100', '--heap-growing-percent'])(
    'leaves the operator’s own choice (%s)',
    (arg) => {
      const set: string[] = [];
      expect(boundHeapGrowth([arg], (flags) => set.push(flags))).toBe(false);
      expect(set).toEqual([]);
    },
  );

  it('can be set after start-up on this Node (a frozen flag would abort the process)', () => {
    // The real setter, as main.ts calls it.
    expect(boundHeapGrowth([])).toBe(true);
  });

  // The young generation's cap can only come from the command line: every launch the repository
  // ships passes it (the benchmark and the multi-process tests take npm start's flags).
  describe('every shipped launch caps the young generation', () => {
    const root = join(__dirname, '..', '..', '..');
    const read = (file: string) => readFileSync(join(root, file), 'utf8');

    it('npm start', () => {
      const start: string = JSON.parse(read('package.json')).scripts.start;
      expect(start.split(' ')).toEqual(['node', YOUNG_GENERATION_FLAG, 'dist/apps/api/src/main.js']);
    });

    it('the container image', () => {
      expect(read('docker/api.Dockerfile')).toContain(
        `CMD ["node", "${YOUNG_GENERATION_FLAG}", "dist/apps/api/src/main.js"]`,
      );
    });

    it('each service of docker-compose.yml', () => {
      const commands = read('docker-compose.yml').match(/command: \[.*main\.js"\]/g) ?? [];
      expect(commands.length).toBeGreaterThan(0);
      for (const command of commands) expect(command).toContain(`"node", "${YOUNG_GENERATION_FLAG}",`);
    });
  });
});
