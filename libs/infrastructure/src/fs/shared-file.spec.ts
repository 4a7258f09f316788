import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformFileSync } from '@swc/core';
import { readOrCreateSharedFile } from './shared-file';

/**
 * Processes starting together on one empty DATA_DIR must agree on one admin token / one webhook
 * key. The race is between processes, so it is tested with processes: the module compiled to plain
 * JS, several children held at a barrier and released at once, each creating the same file.
 */
describe('readOrCreateSharedFile', () => {
  let dir: string;
  let moduleFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'shared-file-'));
    moduleFile = join(dir, 'shared-file.js');
    const { code } = transformFileSync(join(__dirname, 'shared-file.ts'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    writeFileSync(moduleFile, code);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the file once, owner-only, and reads it back afterwards', () => {
    const file = join(dir, 'single', 'token');
    mkdirSync(join(dir, 'single'));
    const first = readOrCreateSharedFile(file, () => 'tok_1');
    expect(first).toEqual({ value: 'tok_1', created: true });
    expect(readOrCreateSharedFile(file, () => 'tok_2')).toEqual({ value: 'tok_1', created: false });
    expect(readFileSync(file, 'utf8')).toBe('tok_1\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'single'))).toEqual(['token']); // no temporary file left behind
  });

  it('refuses an empty file instead of treating it as a value', () => {
    const file = join(dir, 'empty-token');
    writeFileSync(file, '');
    expect(() => readOrCreateSharedFile(file, () => 'tok')).toThrow(/is empty/);
  });

  it('gives every one of several processes started at once on an empty directory the same value', async () => {
    const processes = 6;
    for (let round = 0; round < 3; round++) {
      const data = mkdtempSync(join(dir, `race-${round}-`));
      const file = join(data, 'admin-token');
      const go = join(data, 'go');
      const results = await race(moduleFile, file, go, processes);
      const values = new Set(results.map((r) => r.value));
      expect(values.size).toBe(1);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(readFileSync(file, 'utf8').trim()).toBe([...values][0]);
      expect(readdirSync(data).sort()).toEqual(['admin-token', 'go']);
    }
  });
});

/** Starts `count` children that wait for `go` to exist, then all call readOrCreateSharedFile(file). */
async function race(moduleFile: string, file: string, go: string, count: number) {
  const child = `
    const { existsSync } = require('node:fs');
    const { readOrCreateSharedFile } = require(${JSON.stringify(moduleFile)});
    process.stdout.write('ready\\n');
    while (!existsSync(${JSON.stringify(go)})) {}
    const result = readOrCreateSharedFile(${JSON.stringify(file)}, () => 'tok_' + process.pid + '_' + Math.random());
    process.stdout.write(JSON.stringify(result) + '\\n');
  `;
  const children = Array.from({ length: count }, () => {
    const proc = spawn(process.execPath, ['-e', child], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const ready = new Promise<void>((resolve) => {
      proc.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.startsWith('ready\n')) resolve();
      });
    });
    const done = new Promise<{ value: string; created: boolean }>((resolve, reject) => {
      proc.on('exit', (code) => {
        if (code !== 0) return reject(new Error(`child exited with ${code}`));
        resolve(JSON.parse(out.slice('ready\n'.length)));
      });
    });
    return { ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  expect(existsSync(file)).toBe(false);
  writeFileSync(go, '');
  return Promise.all(children.map((c) => c.done));
}
