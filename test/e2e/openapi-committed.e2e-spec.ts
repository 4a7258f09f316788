import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTestApp } from '../support/test-app';

/**
 * docs/openapi.json is the API reference a reader has without running the service. This keeps it
 * honest: it must equal what the running service serves at /openapi.json. After a change to the
 * API, regenerate it with
 *
 *   UPDATE_OPENAPI=1 npx jest test/e2e/openapi-committed
 *
 * and commit the result with the change.
 */
export const COMMITTED_DOCUMENT = join(__dirname, '../../docs/openapi.json');

/** Stable, reviewable text: two-space indentation and a final newline. */
export const documentText = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

describe('docs/openapi.json', () => {
  const t = useTestApp();

  it('equals the document the running service serves (UPDATE_OPENAPI=1 rewrites it)', async () => {
    const served = await t.request('GET', '/openapi.json');
    expect(served.status).toBe(200);
    const text = documentText(served.body);
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(COMMITTED_DOCUMENT, text);
    const committed = readFileSync(COMMITTED_DOCUMENT, 'utf8');
    // Compared as parsed JSON first for a readable diff, then byte for byte.
    expect(JSON.parse(committed)).toEqual(served.body);
    expect(committed).toBe(text);
  });
});
