import type { AppConfig } from '../config';

/** What Fastify's `trustProxy` option takes, of the forms TRUST_PROXY can give. */
export type FastifyTrustProxy = boolean | string[] | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY (config.ts) as Fastify's `trustProxy`: whose `X-Forwarded-For` entries `request.ip`
 * believes. Off by default, so that a client talking to the service directly cannot choose the
 * address its per-IP rate limit and the request log see.
 *
 * A hop count becomes a trust function that believes the first `hops` peers, counted from the
 * service: Fastify's own number form trusts no one (it cannot check who the nearest peer is), so
 * a count is for a service that only its proxies can reach, as in docker-compose.yml, where the
 * data network is internal and the proxy is the only way in (docs/operations.md).
 */
export function fastifyTrustProxy(option: AppConfig['trustProxy']): FastifyTrustProxy {
  if (typeof option === 'boolean') return option;
  if ('hops' in option) {
    const { hops } = option;
    return (_address, hop) => hop < hops;
  }
  return option.addresses;
}
