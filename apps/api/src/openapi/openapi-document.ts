import type { INestApplication } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { DocumentBuilder, getSchemaPath, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_PREFIX, PAGE_SIZE } from '@app/application';
import type { AppConfig } from '../config';
import {
  IDEMPOTENCY_TTL_MS,
  KEY_FORMAT_MESSAGE,
  KEY_IN_PROGRESS_MESSAGE,
  KEY_REUSED_MESSAGE,
} from '../limits/idempotency';
import { rateLimitMessage, rateLimitPolicies, rateLimitPolicyHeader } from '../limits/rate-limiter';
import { DEFAULT_REQUEST_BOUNDS } from '../http/request-bounds';
import { APP_CONFIG } from '../tokens';
import { API_KEY_SCHEME, OPERATOR_SCHEME, READ_ONLY_ACCESS } from './decorators';
import { toOpenApi31 } from './openapi-31';
import { addTransportAnswers, DEFAULT_BODY_LIMIT } from './transport-answers';
import { addWebhooks } from './webhooks-document';
import { ErrorBody } from './schemas/common.schema';
import { Json } from './json';

const DESCRIPTION = `
A JSON REST interface to a workspace's operational data for aerial capture work: projects, jobs,
job types, pilot assignments, team members (read only) and webhook subscriptions, plus the
auditors' event history and the operator API.

**Authentication.** Every \`/v1\` request carries \`Authorization: Bearer <API_KEY>\`. API keys begin
with \`${API_KEY_PREFIX}\`, belong to one workspace and have a scope: \`read_only\` (GET only) or
\`full_access\`. API access requires the workspace to be on the Enterprise plan. Failures are
HTTP 403 \`{ message, code_name }\`. The operator API (\`/v1/admin/*\`) takes the operator token
(\`ADMIN_TOKEN\`) instead; an API key there is refused with \`api_key_path_not_allowed\`.

**Errors.** Every other error is \`{ message }\`: 400 validation (the message names the field and the
reason), 404 not found (another workspace's resource answers like a missing one), 429 rate limit or
plan limit. Also, for any request: 408 not received in time, 413 body over 1 MiB, 414 URL too long,
415 a body that is not JSON, 431 request line and headers too large, 503 when a request did not
finish in time.

**Pagination.** Lists return up to ${PAGE_SIZE} items with \`count\` (items in this page) and
\`cursor\`; pass the cursor back as \`?cursor=\` for the next page; it is \`null\` on the last page.

**Rate limits.** Per API key in production (per client IP address in the sandbox), per minute and
per second. Every \`/v1\` response carries \`RateLimit-Policy\` and \`RateLimit\`; a refusal is a 429
with \`Retry-After\`.

**Idempotent retries.** A POST with an \`Idempotency-Key\` header takes effect once: a retry with
the same key and the same request within ${IDEMPOTENCY_TTL_MS / 3_600_000} hours gets the first
response again, marked \`Idempotent-Replayed: true\`.

**Read-your-writes.** A successful write answers once the read models serving its resource show
it, so a GET right after sees the change. When they could not show it in time (a projection is
stalled or could not apply the change), the write is still done and its answer carries
\`X-Read-Consistency: pending\`: a GET may show the previous state for a while.

**Request ids.** Every response carries \`x-request-id\`: the caller's own when it sends a sane one,
otherwise a generated UUID. Quote it when reporting a problem.
`.trim();

export const DOCUMENT_TAGS: ReadonlyArray<[name: string, description: string]> = [
  ['Projects', 'Containers of work.'],
  ['Jobs', 'Tasks inside a project, their occurrences and pilot assignments.'],
  ['Job types', 'The predefined catalogue and the workspace’s custom types.'],
  ['Team', 'Members of the workspace, read only.'],
  ['Webhooks', 'Subscriptions to resource events, and the signed deliveries they receive (the document’s `webhooks`).'],
  ['History', 'The event history of each resource (kept after deletion) and the workspace’s audit feed.'],
  ['Operator', 'Workspaces, members and API keys: the operator API (stands in for the dashboard).'],
  ['Operator tools', 'Projection status and rebuilds, read-model verification, event export.'],
  [
    'Ledger',
    'The tamper-evident log of the whole history: signed heads, inclusion and consistency proofs (docs/ledger.md).',
  ],
  ['Observability', 'Liveness, readiness and Prometheus metrics; no authentication.'],
];

/** The document's frame: title, description, license, server, tags and the two bearer schemes. */
export function documentConfig(): Omit<OpenAPIObject, 'paths'> {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Workspace Operations API')
    .setVersion('1.0')
    .setDescription(DESCRIPTION)
    // Relative: the document is served by the service it describes, so its own origin is the server.
    .addServer('/', 'The service that serves this document')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: `${API_KEY_PREFIX}...`,
        description: `A workspace API key (\`Authorization: Bearer ${API_KEY_PREFIX}...\`), created by the operator with a name and a scope (\`read_only\` or \`full_access\`); shown once at creation.`,
      },
      API_KEY_SCHEME,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque token',
        description:
          'The operator token (`ADMIN_TOKEN`, or the one generated into `DATA_DIR/admin-token` on first start).',
      },
      OPERATOR_SCHEME,
    );
  for (const [name, description] of DOCUMENT_TAGS) builder.addTag(name, description);
  const config = builder.build();
  // package.json says UNLICENSED: the service is not published under an open licence. SPDX names
  // such a licence with a `LicenseRef-` identifier; there is no URL to give (and
  // DocumentBuilder.setLicense always writes one).
  config.info.license = {
    name: 'Proprietary (UNLICENSED)',
    identifier: 'LicenseRef-Proprietary',
  } as typeof config.info.license;
  return config;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The limits of this deployment (DEPLOYMENT, RATE_LIMIT_PER_MINUTE, RATE_LIMIT_PER_SECOND), as the 429 shows them. */
function rateLimited(config: Pick<AppConfig, 'deployment' | 'rateLimitPerMinute' | 'rateLimitPerSecond'>) {
  const policies = rateLimitPolicies(config);
  const subject = config.deployment === 'production' ? 'API key' : 'client IP address';
  return {
    message: rateLimitMessage(policies.slice(0, 1), subject, 12),
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before retrying',
        schema: { type: 'integer', minimum: 1, example: 12 },
      },
      RateLimit: {
        description: 'Per policy: the remaining quota `r` and the seconds `t` until it is full again',
        schema: { type: 'string', example: '"minute";r=0;t=12, "second";r=0;t=1' },
      },
      'RateLimit-Policy': {
        description: `Each policy with its quota \`q\` and window \`w\` in seconds, per ${subject}`,
        schema: { type: 'string', example: rateLimitPolicyHeader(policies) },
      },
    },
  };
}

const errorContent = (examples: Record<string, string>) => ({
  'application/json': {
    schema: { $ref: getSchemaPath(ErrorBody) },
    examples: Object.fromEntries(
      Object.entries(examples).map(([key, message]) => [key, { summary: message, value: { message } }]),
    ),
  },
});

/** Shared by many operations, so defined once (components) and referenced. */
const hookComponents = (limit: ReturnType<typeof rateLimited>) => ({
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: `Makes retries safe: 1 to 255 visible ASCII characters (e.g. a UUID), new for each new request. A retry with the same key and the same request within ${IDEMPOTENCY_TTL_MS / 3_600_000} hours gets the first response again, marked \`Idempotent-Replayed: true\`, and takes no effect again.`,
      schema: { type: 'string', minLength: 1, maxLength: 255, example: '5f0c4b8e-2a4d-4c1e-9b7a-0d3e6f1a2b3c' },
    },
  },
  responses: {
    RateLimited: {
      description: 'The request rate limit',
      headers: limit.headers,
      content: errorContent({ rate_limited: limit.message }),
    },
    IdempotencyKeyReused: {
      description: 'The Idempotency-Key was already used for a different request',
      content: errorContent({ idempotency_key_reused: KEY_REUSED_MESSAGE }),
    },
  },
});

const READ_CONSISTENCY = {
  description:
    'Only when the write is done but a read model serving it does not show it yet (`pending`): a GET may return the previous state for a while.',
  schema: { type: 'string', enum: ['pending'] },
};

const examplesOf = (response: Json | undefined): Json | undefined => response?.content?.['application/json']?.examples;
const example = (message: string) => ({ summary: message, value: { message } });

/**
 * What the Fastify hooks do for every route, which no controller declares (limits/*):
 * - every `/v1` route is rate limited: a 429 with its headers (an operation's own 429, such as the
 *   plan's project limit, gets the rate-limit example and headers added);
 * - every POST takes an `Idempotency-Key` (limits/idempotency.ts), with its 400, 409 and 422.
 */
export function addHookBehaviour(document: OpenAPIObject, config: AppConfig): OpenAPIObject {
  const limit = rateLimited(config);
  const components = (document.components ??= {}) as Json;
  const shared = hookComponents(limit);
  Object.assign((components.parameters ??= {}), shared.parameters);
  Object.assign((components.responses ??= {}), shared.responses);
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const responses = (operation.responses ??= {}) as Json;
      if (path.startsWith('/v1/')) {
        const own = examplesOf(responses['429']);
        if (own) {
          own.rate_limited = example(limit.message);
          responses['429'].description += ', or the request rate limit';
          responses['429'].headers = rateLimited(config).headers;
        } else {
          responses['429'] = { $ref: '#/components/responses/RateLimited' };
        }
      }
      if (path.startsWith('/v1/') && method !== 'get') {
        for (const [status, response] of Object.entries(responses)) {
          if (status.startsWith('2') && !response.$ref)
            (response.headers ??= {})['X-Read-Consistency'] = READ_CONSISTENCY;
        }
      }
      if (method !== 'post') continue;
      (operation.parameters ??= []).push({ $ref: '#/components/parameters/IdempotencyKey' });
      const invalid = examplesOf(responses['400']);
      if (invalid) invalid.idempotency_key = example(KEY_FORMAT_MESSAGE);
      else
        responses['400'] = {
          description: 'Invalid Idempotency-Key',
          content: errorContent({ idempotency_key: KEY_FORMAT_MESSAGE }),
        };
      const conflict = examplesOf(responses['409']);
      if (conflict) conflict.idempotency_in_progress = example(KEY_IN_PROGRESS_MESSAGE);
      else
        responses['409'] = {
          description: 'A request with this Idempotency-Key is still running',
          content: errorContent({ idempotency_in_progress: KEY_IN_PROGRESS_MESSAGE }),
        };
      responses['422'] = { $ref: '#/components/responses/IdempotencyKeyReused' };
    }
  }
  return document;
}

/** A response declared without a description (`@ApiOkResponse({ type })`) gets its status's reason phrase. */
function describeResponses(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths as Json)) {
    for (const method of HTTP_METHODS) {
      for (const [status, response] of Object.entries((item[method]?.responses ?? {}) as Json)) {
        if (response.description === '') response.description = STATUS_CODES[status] ?? status;
      }
    }
  }
  return document;
}

/** A read-only key may read: a GET never answers `read_only_access` (decorators.ts, ApiKeyAuth). */
function readOnlyKeysRead(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths as Json))
    delete examplesOf(item.get?.responses?.['403'])?.[READ_ONLY_ACCESS];
  return document;
}

/**
 * The OpenAPI 3.1 document of the running application, generated from its controllers and DTOs.
 * Call it once the application is initialised (routes and global prefix settled).
 */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(app, documentConfig(), {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
    extraModels: [ErrorBody],
  });
  const fastify = app.getHttpAdapter().getInstance() as { initialConfig: { bodyLimit?: number } };
  const bodyLimit = fastify.initialConfig.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const withHooks = addHookBehaviour(describeResponses(readOnlyKeysRead(document)), app.get<AppConfig>(APP_CONFIG));
  return addWebhooks(toOpenApi31(addTransportAnswers(withHooks, { ...DEFAULT_REQUEST_BOUNDS, bodyLimit })));
}
