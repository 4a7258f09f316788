import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ts from 'typescript';
import { ADMIN_TOKEN, useTestApp } from '../support/test-app';

/**
 * A client generated from the document works unchanged. The test does what a client's
 * developer does: generates types with openapi-typescript from /openapi.json (here, no network),
 * type-checks a flow written against them (strict; a wrong body must not compile), and runs it with
 * openapi-fetch against the real service. Generation and the flow run in their own Node processes:
 * openapi-typescript's dependencies are ECMAScript modules, which jest's CommonJS runtime cannot load.
 */

const ROOT = join(__dirname, '../..');

/** The generator, as a client's build runs it: the document from a file, the types to `api.d.ts`. */
const GENERATE = `
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
const document = JSON.parse(readFileSync(new URL('./openapi.json', import.meta.url), 'utf8'));
writeFileSync(new URL('./api.d.ts', import.meta.url), astToString(await openapiTS(document)));
`;

/** The client's code. `./api` is the generated file. */
const FLOW = `
import createClient from 'openapi-fetch';
import type { paths, webhooks } from './api';

async function main() {
  const client = createClient<paths>({
    baseUrl: process.env.BASE_URL!,
    headers: { Authorization: \`Bearer \${process.env.API_KEY}\` },
  });
  const steps: Array<[string, number, unknown]> = [];

  const created = await client.POST('/v1/projects', {
    body: { name: 'Typed client', description: 'Generated from the document', status: 'planned', start_date: '2026-03-01', end_date: '2026-03-31' },
  });
  steps.push(['create', created.response.status, created.data]);
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const projectId: string = created.data.id;

  const got = await client.GET('/v1/projects/{projectId}', { params: { path: { projectId } } });
  steps.push(['get', got.response.status, got.data?.name]);

  const list = await client.GET('/v1/projects');
  steps.push(['list', list.response.status, list.data?.projects.map((p) => p.id)]);

  const patched = await client.PATCH('/v1/projects/{projectId}', { params: { path: { projectId } }, body: { name: 'Typed client, renamed' } });
  steps.push(['patch', patched.response.status, patched.data?.message]);

  const again = await client.GET('/v1/projects/{projectId}', { params: { path: { projectId } } });
  steps.push(['get again', again.response.status, again.data?.name]);

  const deleted = await client.DELETE('/v1/projects/{projectId}', { params: { path: { projectId } } });
  steps.push(['delete', deleted.response.status, null]);

  const gone = await client.GET('/v1/projects/{projectId}', { params: { path: { projectId } } });
  steps.push(['get deleted', gone.response.status, gone.error?.message]);

  process.stdout.write(JSON.stringify(steps));
}

// A receiver's side, from the same file: the payload of a webhook delivery is typed.
type ProjectUpdated = webhooks['project.updated']['post']['requestBody']['content']['application/json'];
export function receive(delivery: ProjectUpdated): string {
  // @ts-expect-error a project has no such field
  void delivery.data.nope;
  return \`\${delivery.type} \${delivery.data.id} \${delivery.data.name} at \${delivery.timestamp}\`;
}

// The generated types bite: a wrong field type does not compile.
export function wrong(client: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error name is a string
  return client.POST('/v1/projects', { body: { name: 42 } });
}

void main().catch((error) => {
  process.stderr.write(String(error));
  process.exit(1);
});
`;

function run(file: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe('a client generated with openapi-typescript + openapi-fetch', () => {
  const t = useTestApp();
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wos-typed-client-'));
    // The client's project: its own folder, with the packages it depends on.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is generated from /openapi.json, type-checks a flow and a webhook receiver, and runs the flow: create, get, list, patch, delete', async () => {
    const document = (await t.request('GET', '/openapi.json')).body;
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));
    writeFileSync(join(dir, 'generate.mjs'), GENERATE);
    await run(join(dir, 'generate.mjs'), {});
    writeFileSync(join(dir, 'flow.ts'), FLOW);

    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
    };
    const program = ts.createProgram([join(dir, 'flow.ts')], options);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);

    const js = ts.transpileModule(FLOW, { compilerOptions: { ...options, noEmit: false } }).outputText;
    writeFileSync(join(dir, 'flow.js'), js);

    const admin = { token: ADMIN_TOKEN };
    const workspace = await t.request('POST', '/v1/admin/workspaces', {
      ...admin,
      body: { name: 'Typed client', plan: 'enterprise' },
    });
    const key = await t.request('POST', `/v1/admin/workspaces/${workspace.body.id}/api-keys`, {
      ...admin,
      body: { name: 'Client', scope: 'full_access' },
    });
    expect(key.status).toBe(201);

    const steps = JSON.parse(await run(join(dir, 'flow.js'), { BASE_URL: t.baseUrl, API_KEY: key.body.key }));
    const projectId = steps[0][2].id;
    expect(steps).toEqual([
      ['create', 201, { id: expect.stringMatching(/^prj_/) }],
      ['get', 200, 'Typed client'],
      ['list', 200, [projectId]],
      ['patch', 200, expect.any(String)],
      ['get again', 200, 'Typed client, renamed'],
      ['delete', 204, null],
      ['get deleted', 404, 'Project not found'],
    ]);
  }, 60_000);
});
