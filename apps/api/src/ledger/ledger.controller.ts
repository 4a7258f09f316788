import { Readable } from 'node:stream';
import { Controller, Get, HttpCode, Post, Query, StreamableFile } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  INVALID_CURSOR,
  Ledger,
  LedgerBehindError,
  LedgerProjectorOnlyError,
  projectorOnlyMessage,
} from '@app/application';
import { conflict, validationError } from '@app/domain';
import { OperatorOnly, RequiresRole } from '../http/auth';
import { HttpProblem } from '../http/errors';
import { ApiCursorQuery, ApiErrors, ApiOperatorAuth } from '../openapi/decorators';
import { ErrorBody } from '../openapi/schemas/common.schema';
import {
  ConsistencyProofSchema,
  InclusionProofSchema,
  LedgerRebuiltSchema,
  LedgerVerificationSchema,
  PublicKeySchema,
  SignedHeadListSchema,
  SignedHeadSchema,
} from './ledger.schema';

const SIGN_HEAD = 'Signing a ledger head';
const REBUILD = 'A ledger rebuild';
const NO_HEAD = 'first is required: no head of a non-empty log is kept yet';
const ONE_EVENT = 'Give exactly one of position or event_id';
const BEHIND_EXAMPLE =
  'The ledger did not catch up with the event store within 10000 ms (log at position 480000, store at 480210); retry later';

/** A non-negative integer from the query string, or a 400 naming the parameter. */
function integer(name: string, raw: unknown, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[0-9]{1,15}$/.test(raw) || Number(raw) < min)
    throw validationError(`${name} must be an integer of at least ${min}`);
  return Number(raw);
}

/** The errors of the ledger's operations, as the HTTP layer answers them. */
function answerOf(error: unknown): unknown {
  if (error instanceof LedgerBehindError) return new HttpProblem(503, error.message, { 'retry-after': '5' });
  if (error instanceof LedgerProjectorOnlyError) return conflict(projectorOnlyMessage(error.operation));
  return error;
}

/**
 * The ledger (docs/ledger.md): signed heads, the public key, inclusion and consistency proofs,
 * the export with leaf data, verification and rebuild. Heads are signed and the log rebuilt by
 * the projector alone (a replica answers 409 saying where to go); everything else reads the
 * stored log and is answered by any process.
 */
@ApiTags('Ledger')
@ApiOperatorAuth()
@Controller('admin/ledger')
@OperatorOnly()
export class LedgerController {
  constructor(private readonly ledger: Ledger) {}

  @Post('heads')
  @RequiresRole('auditor')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Sign a head of the log',
    description:
      'Waits for the log to hold every event written before the request, then signs its size and root with the service’s Ed25519 key, keeps the head and answers it. Save it where it cannot be withdrawn: it is what `audit verify` checks an export against.',
  })
  @ApiCreatedResponse({ type: SignedHeadSchema })
  @ApiErrors({ 409: projectorOnlyMessage(SIGN_HEAD) })
  @ApiResponse({
    status: 503,
    description: 'The log did not catch up with the event store in time (with Retry-After)',
    type: ErrorBody,
    examples: { ledger_behind: { summary: BEHIND_EXAMPLE, value: { message: BEHIND_EXAMPLE } } },
  })
  async signHead() {
    return this.ledger.signHead().catch((error) => {
      throw answerOf(error);
    });
  }

  @Get('heads')
  @RequiresRole('auditor')
  @ApiOperation({ summary: 'Heads kept, newest first', description: 'Signed on demand and periodically.' })
  @ApiCursorQuery()
  @ApiOkResponse({ type: SignedHeadListSchema })
  @ApiErrors({ 400: INVALID_CURSOR })
  listHeads(@Query('cursor') cursor?: unknown) {
    if (cursor !== undefined && typeof cursor !== 'string') throw validationError(INVALID_CURSOR);
    return this.ledger.listHeads(cursor);
  }

  @Get('public-key')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: 'The public key that verifies heads',
    description: 'Ed25519; `public_key` is the base64 of its raw 32 bytes.',
  })
  @ApiOkResponse({ type: PublicKeySchema })
  publicKey() {
    return this.ledger.publicKey();
  }

  @Get('proofs/inclusion')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: 'Inclusion proof of an event',
    description:
      'RFC 9162 audit path of the event (by store position or event id) in the tree of `size` leaves (default: the whole log).',
  })
  @ApiQuery({ name: 'position', required: false, type: 'integer', example: 4712 })
  @ApiQuery({ name: 'event_id', required: false, type: String, example: 'b0d6f4c2-3f5e-4a8b-9c1d-2e3f4a5b6c7d' })
  @ApiQuery({ name: 'size', required: false, type: 'integer', example: 48210 })
  @ApiOkResponse({ type: InclusionProofSchema })
  @ApiErrors({ 400: ONE_EVENT, 404: 'No event at position 4712 in the ledger' })
  inclusion(
    @Query('position') position?: unknown,
    @Query('event_id') eventId?: unknown,
    @Query('size') size?: unknown,
  ) {
    if ((position === undefined) === (eventId === undefined)) throw validationError(ONE_EVENT);
    if (eventId !== undefined && (typeof eventId !== 'string' || eventId.length === 0 || eventId.length > 200))
      throw validationError('event_id must be a non-empty string');
    return this.ledger.inclusion(
      { position: integer('position', position, 1), eventId: eventId as string | undefined },
      integer('size', size, 1),
    );
  }

  @Get('proofs/consistency')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: 'Consistency proof between two sizes',
    description:
      'RFC 9162 proof that the tree of `first` leaves (default: the size of the newest head kept) is a prefix of the tree of `second` leaves (default: the whole log).',
  })
  @ApiQuery({ name: 'first', required: false, type: 'integer', example: 1000 })
  @ApiQuery({ name: 'second', required: false, type: 'integer', example: 48210 })
  @ApiOkResponse({ type: ConsistencyProofSchema })
  @ApiErrors({ 400: ['first must be an integer of at least 1', NO_HEAD] })
  async consistency(@Query('first') first?: unknown, @Query('second') second?: unknown) {
    const to = integer('second', second, 1);
    const from = integer('first', first, 1) ?? (await this.ledger.listHeads()).heads[0]?.size;
    if (!from) throw validationError(NO_HEAD);
    return this.ledger.consistency(from, to);
  }

  /** `events export --all`: a header line (the public key, the log's size), then every event with its leaf data. */
  @Get('export')
  @RequiresRole('auditor')
  @ApiOperation({
    summary: 'Export the whole history with its leaf data (NDJSON)',
    description:
      'First line: `{ ledger_export: 1, key_id, public_key, ledger_size }`. Then one line per event in store order: `leaf_index`, `position`, `stream_id`, `revision`, `id`, `type`, `schema_version`, `data_sha256` (SHA-256 of the stored data, hex), `stored_data` and `stored_metadata` (base64 of the bytes as stored; `stored_data` left out when the data holds a credential-like field), and `ledger_leaf_hash` (the leaf the log recorded). What `audit verify` reads; the events as readers see them are in `GET /v1/admin/events/export`.',
  })
  @ApiOkResponse({ description: 'NDJSON', content: { 'application/x-ndjson': { schema: { type: 'string' } } } })
  export() {
    const ledger = this.ledger;
    async function* lines() {
      for await (const line of ledger.exportAll()) yield `${JSON.stringify(line)}\n`;
    }
    return new StreamableFile(Readable.from(lines()), { type: 'application/x-ndjson' });
  }

  @Post('verify')
  @RequiresRole('auditor')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify the log against the events as stored',
    description: 'Recomputes every leaf from the event store and compares it with the stored log.',
  })
  @ApiOkResponse({ type: LedgerVerificationSchema })
  verify() {
    return this.ledger.verify();
  }

  @Post('rebuild')
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rebuild the log from the event store',
    description:
      'Drops the stored log and builds it again from the events as they are. Kept heads stay: a log rebuilt over a changed history no longer matches them.',
  })
  @ApiOkResponse({ type: LedgerRebuiltSchema })
  @ApiErrors({ 409: projectorOnlyMessage(REBUILD) })
  async rebuild() {
    return this.ledger.rebuild().catch((error) => {
      throw answerOf(error);
    });
  }
}
