import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parseHead, parsePublicKey, verifyAudit } from '@app/application/ledger/audit-verifier';

export const AUDIT_USAGE = `Usage: workspace-ops audit verify --export FILE --head FILE [--head FILE ...] [--public-key FILE]

  Checks an export (events export --all) against heads saved from POST /v1/admin/ledger/heads,
  offline: every leaf recomputed from the stored bytes, the root at each head's size, each
  head's Ed25519 signature, and that the heads are prefixes of one another. Exit 0: verified.
  --public-key FILE   the key to check signatures with (base64 of the raw 32 bytes, the JSON of
                      GET /v1/admin/ledger/public-key, or PEM); without it the export's own key
                      is used, which only shows that the files agree with each other.
`;

/**
 * `audit verify`: the offline verifier (docs/ledger.md). Reads files only: no service, no
 * network. Exit 0 when everything verifies, 1 when something does not, 2 on a usage error.
 */
export async function runAudit(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        export: { type: 'string' },
        head: { type: 'string', multiple: true },
        'public-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${AUDIT_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(AUDIT_USAGE);
    return 0;
  }
  if (positionals.join(' ') !== 'verify' || !values.export || !values.head?.length) {
    process.stderr.write(`audit verify needs --export FILE and at least one --head FILE\n\n${AUDIT_USAGE}`);
    return 2;
  }
  try {
    const heads = values.head.map((file) => ({ name: file, head: parseHead(readFileSync(file, 'utf8'), file) }));
    const key = values['public-key'] ? parsePublicKey(readFileSync(values['public-key'], 'utf8')) : null;
    const lines = createInterface({ input: createReadStream(values.export), crlfDelay: Infinity });
    const report = await verifyAudit(lines, heads, key);
    for (const line of report.lines) process.stdout.write(`${line}\n`);
    return report.ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(`audit verify: ${(error as Error).message}\n`);
    return 1;
  }
}
