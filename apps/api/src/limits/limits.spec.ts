import { clientAddress } from './client-address';
import { parseIdempotencyKey } from './idempotency';
import {
  rateLimitHeader,
  rateLimitMessage,
  rateLimitPolicies,
  rateLimitPolicyHeader,
  retryAfterSeconds,
} from './rate-limiter';
import { canonicalJson, ResponseSealer } from './response-sealer';

describe('rate-limit headers', () => {
  const policies = rateLimitPolicies({ rateLimitPerMinute: 1000, rateLimitPerSecond: 25 });

  it('describes the policies in the structured-field form of the IETF draft', () => {
    expect(rateLimitPolicyHeader(policies)).toBe('"minute";q=1000;w=60, "second";q=25;w=1');
  });

  it('reports remaining quota and whole seconds until the full quota is back', () => {
    const header = rateLimitHeader([
      { policy: policies[0], remaining: 998, resetMs: 60_400 },
      { policy: policies[1], remaining: 0, resetMs: 0 },
    ]);
    expect(header).toBe('"minute";r=998;t=61, "second";r=0;t=0');
  });

  it('never tells a client to retry in 0 seconds, and names what ran out', () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(1_001)).toBe(2);
    expect(rateLimitMessage(policies, 'API key', 2)).toBe(
      'Rate limit exceeded: at most 1000 requests per minute and 25 requests per second per API key; retry in 2 seconds',
    );
  });

  it('refuses figures the counters cannot honour', () => {
    expect(() => rateLimitPolicies({ rateLimitPerMinute: 0, rateLimitPerSecond: 1 })).toThrow(/positive integer/);
  });
});

describe('clientAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1%eth0', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::1.2.3.4', '64:ff9b:0:0::/64'],
  ])('%s counts as %s', (ip, expected) => {
    expect(clientAddress(ip)).toBe(expected);
  });
});

describe('parseIdempotencyKey', () => {
  it('takes a bare or quoted key and refuses anything else', () => {
    expect(parseIdempotencyKey('abc-123')).toBe('abc-123');
    expect(parseIdempotencyKey('"abc-123"')).toBe('abc-123');
    for (const bad of ['', '""', 'a b', 'x'.repeat(256)])
      expect(() => parseIdempotencyKey(bad)).toThrow(/Idempotency-Key/);
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(/given once/);
  });
});

describe('ResponseSealer', () => {
  const sealer = new ResponseSealer('v1_secret-credential', 'api_key:key_1');

  it('fingerprints requests by meaning: key order does not matter, values, path and method do', () => {
    const base = sealer.fingerprint('POST', '/v1/projects', { a: 1, b: { c: [1, 2], d: null } });
    expect(sealer.fingerprint('POST', '/v1/projects', { b: { d: null, c: [1, 2] }, a: 1 })).toBe(base);
    expect(sealer.fingerprint('POST', '/v1/projects', { a: 2, b: { c: [1, 2], d: null } })).not.toBe(base);
    expect(sealer.fingerprint('POST', '/v1/projects', { a: 1, b: { c: [2, 1], d: null } })).not.toBe(base);
    expect(sealer.fingerprint('POST', '/v1/other', { a: 1, b: { c: [1, 2], d: null } })).not.toBe(base);
    // Another credential gives another fingerprint for the same request.
    expect(
      new ResponseSealer('v1_other', 'api_key:key_1').fingerprint('POST', '/v1/projects', {
        a: 1,
        b: { c: [1, 2], d: null },
      }),
    ).not.toBe(base);
  });

  it('opens only what it sealed, for the record it sealed it for', () => {
    const sealed = sealer.seal('{"key":"v1_shown_once"}', 'record-1');
    expect(sealed).not.toContain('shown_once');
    expect(sealer.open(sealed, 'record-1')).toBe('{"key":"v1_shown_once"}');
    expect(sealer.open(sealed, 'record-2')).toBeNull();
    expect(new ResponseSealer('v1_other', 'api_key:key_1').open(sealed, 'record-1')).toBeNull();
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('AA') ? 'BB' : 'AA');
    expect(sealer.open(tampered, 'record-1')).toBeNull();
  });

  it('writes canonical JSON: sorted keys, otherwise what JSON.stringify writes', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 1, c: undefined }, undefined] })).toBe('{"a":[{"d":1},null],"b":1}');
    expect(canonicalJson(undefined)).toBe('null');
    const sample = { z: ['x', 1.5, true, null, { y: 'ü"\\', x: [] }], a: {}, m: -0, e: 'line\nbreak' };
    expect(JSON.parse(canonicalJson(sample))).toEqual(JSON.parse(JSON.stringify(sample)));
    expect(canonicalJson(sample)).toBe(
      JSON.stringify({ a: {}, e: 'line\nbreak', m: -0, z: ['x', 1.5, true, null, { x: [], y: 'ü"\\' }] }),
    );
  });

  it('fingerprints a body nested far deeper than the stack would allow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(sealer.fingerprint('POST', '/v1/projects', deep)).toMatch(/^[\w-]{43}$/);
  });
});
