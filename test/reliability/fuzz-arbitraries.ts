import fc from 'fast-check';
import {
  CAPTURE_TYPES,
  JOB_PATTERNS,
  MEMBER_ROLES,
  PRIORITIES,
  RECURRING_FREQUENCIES,
  STATUS_VALUES,
  WEBHOOK_EVENT_TYPES,
} from '@app/domain';
import { plusDays, today } from '../support/dates';
import type { RouteInfo } from '../support/route-inventory';

/**
 * fast-check arbitraries for requests to every route of the service, built from each endpoint's
 * schema (docs/api.md, Projects to Webhooks and Validation messages; the operator contract of docs/operator-contract.md; DTOs for the routes
 * the API reference leaves out). Bodies are generated as JSON *text*, so they can hold what no JavaScript
 * object can: `__proto__` keys, duplicate keys, numbers beyond a double, and outright malformed
 * JSON. Every value is drawn from the valid values of its field mixed with wrong types, boundary
 * lengths, unicode edge cases, huge numbers and `$`-operators.
 *
 * Webhook URLs only ever point at loopback (a closed port): the service under fuzz allows private
 * targets, and a generated URL must never make it send anything off this machine.
 */

// The valid values come from the domain's declarations: a value added there is fuzzed here too.
export const STATUSES: readonly string[] = STATUS_VALUES;
const EVENT_TYPES: readonly string[] = WEBHOOK_EVENT_TYPES;
const PATTERNS: readonly string[] = JOB_PATTERNS;
const FREQUENCIES: readonly string[] = RECURRING_FREQUENCIES;
const ROLES: readonly string[] = MEMBER_ROLES;

// ---------------------------------------------------------------------------------------------
// JSON text

/** JSON text of a string (JSON.stringify escapes lone surrogates, so the text stays valid JSON). */
const str = (s: string) => JSON.stringify(s);
const obj = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${str(k)}:${v}`).join(',')}}`;
const arr = (items: string[]) => `[${items.join(',')}]`;

const WEIRD_STRINGS = [
  '', ' ', '\t', '\n', '\u0000', 'null', 'undefined', 'true', '0', '-1', 'NaN', 'Infinity',
  '\ud800', '\udfff', '\ud83d', '\u202e', '\u200b', '\u200d', '\ufeff', '\uffff', 'e\u0301', '😀', '👨‍👩‍👧‍👦', '🏳️‍🌈', 'ß', 'İ', 'ﬁ',
  '<script>alert(1)</script>', "' OR '1'='1", '"; DROP TABLE events; --', '../../etc/passwd', '%00', '%2e%2e%2f',
  '${jndi:ldap://127.0.0.1/a}', '{{7*7}}', '__proto__', 'constructor', 'prototype', '$where', '$ne', 'toString', 'hasOwnProperty',
]; // prettier-ignore

/** Number tokens as they appear in JSON text, beyond what a double holds included. */
const HUGE_NUMBERS = [
  '0', '-0', '1', '-1', '0.5', '1e308', '1.7976931348623157e308', '1e309', '-1e309', '4.9e-324', '1e-400', '9007199254740991',
  '9007199254740993', '-9007199254740993', '123456789012345678901234567890', '1E2', '1e+2', '0.1e1', '100000000000000000000000',
  '2147483648', '-2147483649', '4294967296', '1.0', '365.0000000000001', '10.000000000000002',
]; // prettier-ignore

const operatorObject = fc.constantFrom(
  obj([['$ne', 'null']]),
  obj([['$gt', str('')]]),
  obj([['$where', str('sleep(1000)')]]),
  obj([['$regex', str('.*')]]),
  obj([['$in', arr([str('a'), 'null'])]]),
  obj([['$set', obj([['workspace_id', str('ws_other')]])]]),
  obj([['__proto__', obj([['polluted', 'true']])]]),
  obj([['constructor', obj([['prototype', obj([['polluted', 'true']])]])]]),
);

const unicodeString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(...WEIRD_STRINGS),
);

/** Anything at all, as JSON text: the value of a wrong-typed or unknown field. */
const junkValue: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false', '[]', '{}'),
    fc.constantFrom(...HUGE_NUMBERS),
    unicodeString.map(str),
    operatorObject,
    fc.array(tie('value'), { maxLength: 3 }).map(arr),
    fc.array(fc.tuple(unicodeString, tie('value')), { maxLength: 3 }).map(obj),
  ),
})).value;

// ---------------------------------------------------------------------------------------------
// field kinds: valid values mixed with the invalid ones that matter for each

type Field = { name: string; value: fc.Arbitrary<string>; required?: boolean };

const repeat = (unit: string, n: number) => unit.repeat(Math.max(0, n));

/** Strings at and around the bounds, counted in code points (the service's rule) and in UTF-16 units. */
function boundedString(min: number, max: number): fc.Arbitrary<string> {
  const lengths = [...new Set([min - 1, min, max, max + 1].filter((n) => n >= 0))];
  return fc.oneof(
    { arbitrary: fc.string({ minLength: Math.max(min, 1), maxLength: Math.min(max, 40) }).map(str), weight: 6 },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...lengths), fc.constantFrom('a', '😀', 'e\u0301', '\u0000', ' ', 'ß'))
        .map(([n, u]) => str(repeat(u, n))),
      weight: 3,
    },
    { arbitrary: unicodeString.map(str), weight: 2 },
    { arbitrary: fc.constant(str(repeat('x', 100_000))), weight: 1 },
    { arbitrary: junkValue, weight: 2 },
  );
}

function oneOf(values: readonly (string | number)[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...values).map((v) => JSON.stringify(v)), weight: 6 },
    {
      arbitrary: fc
        .constantFrom(...values)
        .map((v) => JSON.stringify(typeof v === 'string' ? v.toUpperCase() : String(v))),
      weight: 1,
    },
    { arbitrary: fc.constantFrom(...values).map((v) => (typeof v === 'string' ? str(` ${v}`) : `${v}.5`)), weight: 1 },
    { arbitrary: junkValue, weight: 2 },
  );
}

function date(options: { recent?: boolean } = {}): fc.Arbitrary<string> {
  const base = today();
  return fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 400 }).map((d) => str(plusDays(base, d))), weight: 6 },
    {
      arbitrary: fc.constantFrom(
        '2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '2026-1-1', '20260101', '2026/01/01', '2026-01-01T00:00:00Z',
        '2026-01-01 ', ' 2026-01-01', '9999-12-31', '0000-01-01', '+002026-01-01', '-2026-01-01', '1970-01-01', 'today', '',
        options.recent ? plusDays(base, -200) : '1900-01-01', plusDays(base, -182), plusDays(base, -170),
      ).map(str),
      weight: 3,
    },
    { arbitrary: junkValue, weight: 2 },
  ); // prettier-ignore
}

function integer(min: number, max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.integer({ min, max }).map(String), weight: 5 },
    { arbitrary: fc.constantFrom(min - 1, max + 1, min, max).map(String), weight: 2 },
    { arbitrary: fc.double({ noNaN: true }).map((d) => (Number.isFinite(d) ? String(d) : '1e309')), weight: 1 },
    { arbitrary: fc.constantFrom(...HUGE_NUMBERS), weight: 2 },
    { arbitrary: fc.integer({ min, max }).map((n) => str(String(n))), weight: 1 },
    { arbitrary: junkValue, weight: 1 },
  );
}

function decimal(min: number, max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.double({ min, max, noNaN: true }).map(String), weight: 5 },
    { arbitrary: fc.constantFrom(min, max, min - 0.0000001, max + 0.0000001, -0).map(String), weight: 2 },
    { arbitrary: fc.constantFrom(...HUGE_NUMBERS), weight: 2 },
    { arbitrary: junkValue, weight: 1 },
  );
}

function listOf(item: fc.Arbitrary<string>, maxItems: number): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.array(item, { minLength: 0, maxLength: Math.min(maxItems, 6) }).map(arr), weight: 5 },
    { arbitrary: fc.array(item, { minLength: maxItems, maxLength: maxItems + 2 }).map(arr), weight: 1 },
    { arbitrary: item.map((i) => arr([i, i])), weight: 1 },
    { arbitrary: fc.constant(arr(Array(5000).fill('1'))), weight: 1 },
    { arbitrary: junkValue, weight: 1 },
  );
}

const bool = fc.oneof(
  { arbitrary: fc.constantFrom('true', 'false'), weight: 5 },
  { arbitrary: fc.constantFrom('"true"', '1', '0', 'null', '"false"'), weight: 2 },
  { arbitrary: junkValue, weight: 1 },
);
const nullable = (value: fc.Arbitrary<string>) =>
  fc.oneof({ arbitrary: value, weight: 5 }, { arbitrary: fc.constant('null'), weight: 1 });

/** Webhook URLs: loopback only (see the file comment); everything else is one a service must refuse. */
const webhookUrl = fc.oneof(
  { arbitrary: fc.tuple(fc.constantFrom('127.0.0.1:9', '[::1]:9', 'localhost:9', '127.0.0.1:1'), fc.string({ unit: 'grapheme-ascii', maxLength: 20 })).map(([host, path]) => str(`https://${host}/${encodeURIComponent(path)}`)), weight: 5 },
  { arbitrary: fc.constantFrom('http://127.0.0.1:9/x', 'ftp://127.0.0.1/x', 'https://', 'https:///x', 'https://exa mple/', '//127.0.0.1:9/x', 'javascript:alert(1)', 'file:///etc/passwd', `https://127.0.0.1:9/${'a'.repeat(3000)}`, 'HTTPS://127.0.0.1:9/x', 'https://127.0.0.1:99999/x', 'https://user:pass@127.0.0.1:9/x').map(str), weight: 2 },
  { arbitrary: junkValue, weight: 1 },
); // prettier-ignore

// ---------------------------------------------------------------------------------------------
// bodies per route

export interface Fixture {
  projectId: string;
  jobId: string;
  jobTypeId: string;
  pilotId: string;
  memberId: string;
  webhookId: string;
  foreign: { projectId: string; jobId: string; jobTypeId: string; memberId: string; webhookId: string };
  /** Resources a fuzzed DELETE may take (the fixtures above must stay, or later requests lose their target). */
  victims: { projects: string[]; jobs: string[]; jobTypes: string[]; webhooks: string[]; apiKeys: string[] };
  /** A workspace of its own for the operator routes, so they cannot disable the fuzzing tenant. */
  operatorWorkspaceId: string;
  operatorMemberId: string;
}

function projectFields(update: boolean): Field[] {
  return [
    { name: 'name', value: boundedString(1, 100), required: !update },
    { name: 'description', value: boundedString(update ? 1 : 0, 1000), required: !update },
    { name: 'status', value: oneOf(STATUSES), required: !update },
    { name: 'start_date', value: date(), required: !update },
    { name: 'end_date', value: update ? nullable(date()) : date() },
    { name: 'external_id', value: nullable(boundedString(0, 255)) },
    ...(update ? [{ name: 'laanc_number', value: nullable(boundedString(0, 100)) }] : []),
    { name: 'other_status_reason', value: boundedString(1, 200) },
  ];
}

function jobFields(fixture: Fixture, update: boolean): Field[] {
  const maybeNull = (v: fc.Arbitrary<string>) => (update ? nullable(v) : v);
  return [
    { name: 'name', value: boundedString(1, 100), required: !update },
    {
      name: 'type',
      value: oneOf([
        'wind_turbine',
        'cell_tower',
        'drone_inspection',
        fixture.jobTypeId,
        fixture.foreign.jobTypeId,
        'job_type_missing',
      ]),
      required: !update,
    },
    { name: 'job_pattern', value: oneOf(PATTERNS), required: !update },
    { name: 'start_date', value: date({ recent: true }), required: !update },
    { name: 'status', value: oneOf(STATUSES) },
    { name: 'priority', value: oneOf(PRIORITIES) },
    { name: 'description', value: nullable(boundedString(0, 1000)) },
    { name: 'end_date', value: maybeNull(date()) },
    { name: 'latitude', value: maybeNull(decimal(-90, 90)) },
    { name: 'longitude', value: maybeNull(decimal(-180, 180)) },
    { name: 'inspection_notes', value: boundedString(0, 2000) },
    { name: 'capture_types', value: maybeNull(listOf(oneOf(CAPTURE_TYPES), 20)) },
    { name: 'external_id', value: maybeNull(boundedString(0, 255)) },
    { name: 'other_status_reason', value: boundedString(1, 200) },
    { name: 'recurring_frequency', value: maybeNull(oneOf(FREQUENCIES)) },
    { name: 'recurring_interval', value: maybeNull(integer(1, 365)) },
    { name: 'selected_days_of_week', value: maybeNull(listOf(integer(0, 6), 7)) },
    { name: 'week_of_month', value: maybeNull(oneOf([1, 2, 3, 4, -1])) },
    { name: 'weeks_of_month', value: maybeNull(listOf(oneOf([1, 2, 3, 4, -1]), 5)) },
    { name: 'flights_per_occurrence', value: maybeNull(integer(1, 10)) },
  ];
}

const ids = (values: string[]) => oneOf(values);

/** The fields of each route's body, by `METHOD path`; routes not listed get objects of junk. */
export function bodySchemas(fixture: Fixture): Record<string, Field[]> {
  const pilots = listOf(
    fc.oneof(ids([fixture.pilotId, fixture.memberId, fixture.foreign.memberId]), unicodeString.map(str)),
    100,
  );
  return {
    'POST /v1/projects': projectFields(false),
    'PATCH /v1/projects/:projectId': projectFields(true),
    'POST /v1/projects/:projectId/archive': [{ name: 'archived', value: bool, required: true }],
    'POST /v1/projects/:projectId/jobs': jobFields(fixture, false),
    'PATCH /v1/projects/:projectId/jobs/:jobId': jobFields(fixture, true),
    'POST /v1/projects/:projectId/jobs/:jobId/assign': [{ name: 'pilots', value: pilots, required: true }],
    'POST /v1/projects/:projectId/jobs/:jobId/unassign': [{ name: 'pilots', value: pilots, required: true }],
    'POST /v1/job-types': [
      { name: 'name', value: boundedString(1, 50), required: true },
      { name: 'icon', value: fc.oneof(oneOf(['wind', 'radio', 'home', 'settings']), boundedString(0, 20)) },
    ],
    'POST /v1/webhooks': [
      { name: 'name', value: boundedString(2, 100), required: true },
      { name: 'url', value: webhookUrl, required: true },
      { name: 'event_types', value: listOf(oneOf(EVENT_TYPES), 8), required: true },
    ],
    'PATCH /v1/webhooks/:webhookId': [
      { name: 'name', value: boundedString(2, 100) },
      { name: 'url', value: webhookUrl },
      { name: 'event_types', value: listOf(oneOf(EVENT_TYPES), 8) },
      { name: 'status', value: oneOf(['active', 'paused']) },
    ],
    'POST /v1/webhooks/:webhookId/recover': [
      { name: 'since', value: integer(0, Date.now()), required: true },
      { name: 'until', value: integer(0, Date.now() + 1000) },
    ],
    'POST /v1/admin/workspaces': [
      { name: 'name', value: boundedString(1, 100), required: true },
      { name: 'plan', value: oneOf(['free', 'pro', 'enterprise']), required: true },
      { name: 'project_limit', value: nullable(integer(0, 1_000_000_000)) },
    ],
    'PATCH /v1/admin/workspaces/:workspaceId': [
      { name: 'plan', value: oneOf(['free', 'pro', 'enterprise']) },
      { name: 'project_limit', value: nullable(integer(0, 1_000_000_000)) },
    ],
    'POST /v1/admin/workspaces/:workspaceId/members': [
      { name: 'email', value: fc.oneof(fc.emailAddress().map(str), boundedString(3, 254)), required: true },
      { name: 'role', value: oneOf(ROLES), required: true },
      { name: 'first_name', value: nullable(boundedString(0, 100)) },
      { name: 'last_name', value: nullable(boundedString(0, 100)) },
      { name: 'title', value: nullable(boundedString(0, 100)) },
      { name: 'phone_number', value: nullable(boundedString(0, 50)) },
      { name: 'profile_picture', value: nullable(fc.oneof(fc.webUrl().map(str), boundedString(0, 2048))) },
      { name: 'status', value: oneOf(['active', 'invited', 'inactive']) },
    ],
    'POST /v1/admin/workspaces/:workspaceId/api-keys': [
      { name: 'name', value: boundedString(1, 100), required: true },
      { name: 'scope', value: oneOf(['read_only', 'full_access']), required: true },
    ],
    'POST /v1/admin/projections/rebuild': [{ name: 'name', value: oneOf(['projects', 'audit', 'nope', '__proto__']) }],
  };
}

/** Fields no client may ever set, whatever the route (mass assignment). */
export const NEVER_WRITABLE = [
  'id',
  'workspace_id',
  'created',
  'updated',
  'created_by',
  'secret',
  'key_hash',
  'is_predefined',
  'failure_count',
  'last_triggered_at',
  '_id',
  'profile_sealed',
];

/** Keys sent beside a body's fields now and then: the never-writable ones and prototype or operator keys. */
const EXTRA_KEYS = [
  ...NEVER_WRITABLE,
  '__proto__',
  'constructor',
  'prototype',
  '$set',
  '$where',
  'archived',
  'laanc_number',
  '',
];

/** A JSON object text for a schema: each field present (or not) with a drawn value, plus extra keys now and then. */
export function objectBody(fields: Field[]): fc.Arbitrary<string> {
  const entry = (f: Field) =>
    fc.oneof(
      { arbitrary: f.value.map((v): [string, string] | null => [f.name, v]), weight: f.required ? 9 : 4 },
      { arbitrary: fc.constant(null), weight: f.required ? 1 : 4 },
    );
  const extras = fc.oneof(
    { arbitrary: fc.constant([] as [string, string][]), weight: 8 },
    {
      arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), unicodeString), junkValue), {
        minLength: 1,
        maxLength: 3,
      }),
      weight: 2,
    },
  );
  return fc.tuple(fc.tuple(...fields.map(entry)), extras, fc.boolean()).map(([entries, extra, duplicateFirst]) => {
    const present = entries.filter((e): e is [string, string] => e !== null);
    // A key given twice: JSON.parse keeps the last; a validator must judge that one.
    if (duplicateFirst && present.length > 0 && extra.length === 0) present.push([present[0][0], 'null']);
    return obj([...present, ...extra]);
  });
}

/** Text that is not one JSON object: other JSON values, broken JSON, deep nesting, nothing. */
export const notAnObject: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom('', ' ', 'null', 'true', '0', '"text"', '[]', '[{}]', '{', '}', '{"a":', '{"a":1,}', "{'a':1}", '{a:1}', 'NaN', '{"a":NaN}', '{"a":undefined}', '\u0000', '\ufeff{}', '{"a":1}{"b":2}', '{"a":"\\ud800"}', '{"a":"\\x41"}', '{"a":01}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '[1,2,'), weight: 6 },
  { arbitrary: junkValue, weight: 4 },
  { arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => `{"name":"n","status":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 2 },
  // Just over the 1 MiB body limit (413).
  { arbitrary: fc.constant(`{"name":"${'x'.repeat(1024 * 1024 + 10)}"}`), weight: 1 },
); // prettier-ignore

// ---------------------------------------------------------------------------------------------
// paths, queries, headers

/** Ids that are not ids: empty-ish, traversal, encodings, injections, very long, unicode. */
export const oddId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'x', '.', '..', '%2e%2e', '%2E%2E%2F..', '%00', '%', '%zz', '%ff', '%c0%af', 'null', 'undefined', '0', '-1', '1e309', 'prj_', 'job_',
    '__proto__', 'constructor', 'prototype', 'hasOwnProperty', '$where', '%7B%22%24ne%22%3Anull%7D', '%5B%5D', 'a%2Fb', '%2F', '..%2F..%2Fadmin',
    "'%20OR%20'1'%3D'1", '%3Cscript%3E', '%F0%9F%92%A5', '%E2%80%AE', 'prj_missing', 'PRJ_UPPER', '*', '~', 'a;b', 'a,b',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, 'x'))),
  fc.integer({ min: 200, max: 5000 }).map((n) => 'a'.repeat(n)),
); // prettier-ignore

const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', 'true', 'false', '1', '-1', '0', '1e309', '99999999999999999999', 'null', '%', '%zz', '%00', 'a,b,,c', ',', '__proto__', '%24ne', 'planned,other', 'pilot', 'all', 'project.created,job.deleted'),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }).map(String),
  fc.string({ maxLength: 40 }).map((s) => Buffer.from(s).toString('base64url')),
); // prettier-ignore

const KNOWN_QUERY = [
  'cursor',
  'status',
  'archived',
  'role',
  'type',
  'from',
  'to',
  'as_of',
  'workspace_id',
  'stream',
  'limit',
  'page_size',
];

export const queryString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constant(''), weight: 4 },
  {
    arbitrary: fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...KNOWN_QUERY), fc.constantFrom('__proto__[x]', 'constructor[prototype][x]', 'status[]', 'cursor[$ne]', 'a[b][c]', '', '%00'), fc.string({ unit: 'grapheme-ascii', maxLength: 10 }).map(encodeURIComponent)),
          queryValue,
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
    weight: 5,
  },
  { arbitrary: fc.constantFrom('?', '?&', '?=', '?cursor', '?cursor=a&cursor=b', '?status=planned&status=draft', `?cursor=${'A'.repeat(3000)}`, '?#frag'), weight: 1 },
); // prettier-ignore

export const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json; charset=latin1', 'application/json;charset=UTF-8;x=y',
  'text/plain', 'text/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/*', '*/*',
  'application/problem+json', 'application/vnd.api+json', '', ';', 'application/json, text/plain', 'application/octet-stream',
]; // prettier-ignore

/** Header values Node will send (latin1, no control characters), some of them very long. */
export const headerValue: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }).map((s) => s.replace(/[\p{Cc}]/gu, '')),
  fc.constantFrom('', ' ', '*', 'W/"0"', '"0"', '"0", "1"', 'null', '0', '-1', '1e309', 'Bearer', 'Bearer ', 'bearer v1_', 'ÿþ', 'é'),
  fc.integer({ min: 100, max: 8000 }).map((n) => 'v'.repeat(n)),
); // prettier-ignore

export const ODD_HEADERS = [
  'if-match',
  'if-none-match',
  'idempotency-key',
  'accept',
  'accept-encoding',
  'x-forwarded-for',
  'x-forwarded-host',
  'origin',
  'range',
  'x-http-method-override',
  'cookie',
  'expect-ct',
];

/** The weight of a route among the generated requests: the expensive operator tools less often. */
export function routeWeight(route: RouteInfo): number {
  if (
    route.path === '/v1/admin/events/verify' ||
    route.path === '/v1/admin/projections/rebuild' ||
    route.path === '/v1/admin/events/export'
  )
    return 1;
  if (route.audience === 'public') return 2;
  if (route.audience === 'operator') return 6;
  return 20;
}
