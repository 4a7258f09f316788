import { fastifyTrustProxy } from './trust-proxy';

describe("TRUST_PROXY as Fastify's trustProxy", () => {
  it('passes off, on and address lists as Fastify takes them', () => {
    expect(fastifyTrustProxy(false)).toBe(false);
    expect(fastifyTrustProxy(true)).toBe(true);
    expect(fastifyTrustProxy({ addresses: ['10.0.0.0/8', '::1'] })).toEqual(['10.0.0.0/8', '::1']);
  });

  it('trusts the first hops of a count, counted from the service (the peer is hop 0)', () => {
    const trust = fastifyTrustProxy({ hops: 2 }) as (address: string, hop: number) => boolean;
    expect(typeof trust).toBe('function');
    expect([0, 1, 2, 3].map((hop) => trust('192.0.2.1', hop))).toEqual([true, true, false, false]);
  });
});
