import { isIP } from 'node:net';
import { resolve } from 'node:path';

/**
 * Runtime configuration (README "Configuration"; the contract is docs/operator-contract.md), as the
 * service runs with it: `loadConfig` parses the environment, and the start-up step
 * (`prepareDataDir`, data-dir.ts) settles the admin token.
 */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** ADMIN_TOKEN, or the token kept in DATA_DIR/admin-token. */
  adminToken: string;
  deployment: 'production' | 'sandbox';
  eventStore: 'sqlite' | 'eventstoredb';
  eventStoreDbUrl: string | null;
  readStore: 'sqlite' | 'mongodb';
  mongodbUrl: string | null;
  /**
   * Where crypto-shredding keys live (docs/privacy.md): `sqlite` (DATA_DIR/keys.db, where an
   * erased key leaves no copy) or `mongodb` (its oplog keeps a destroyed key for its window).
   * Defaults to the read store's kind.
   */
  subjectKeyStore: 'sqlite' | 'mongodb';
  rateLimitStore: 'memory' | 'redis';
  redisUrl: string | null;
  rateLimitPerMinute: number;
  rateLimitPerSecond: number;
  webhookRetryDelaysMs: number[];
  webhookPauseAfterFailures: number;
  webhookAllowPrivateTargets: boolean;
  /**
   * `inline` (default): this process runs the projections (one per deployment of a read store).
   * `external`: another process does (the projector of the scaled deployment); writes here wait on
   * the stored checkpoints for read-your-writes.
   */
  projections: 'inline' | 'external';
  /**
   * How long a write waits for the read models serving it before it answers anyway, with
   * `X-Read-Consistency: pending` (READ_YOUR_WRITES_TIMEOUT_MS).
   */
  readYourWritesTimeoutMs: number;
  /** pino level of every log line: trace, debug, info, warn, error, fatal or silent. */
  logLevel: string;
  /**
   * `on` (default): the projector of the embedded read models keeps the documents and list pages
   * it reads until it changes them (docs/decisions.md, "Read cache"); `off`: every read reads the
   * file (READ_CACHE). No effect on a replica or on MongoDB, which never keep them.
   */
  readCache: 'on' | 'off';
  /**
   * Which peers' `X-Forwarded-For` names the client (TRUST_PROXY, `trustProxyOption` below): off
   * (`false`, the default: the socket's peer is the client), every peer (`true`), the first
   * `hops` peers counted from the service, or the listed addresses, CIDR ranges and proxy-addr's
   * names (`loopback`, `linklocal`, `uniquelocal`).
   */
  trustProxy: boolean | { hops: number } | { addresses: string[] };
  /**
   * The service's public base URL (PUBLIC_URL, e.g. `https://ops.example.com`), for the absolute
   * links it hands out (the dashboard's sign-in links). Null: each link is built from the request
   * that asked for it (its protocol and host, as TRUST_PROXY lets forwarded headers say them).
   */
  publicUrl: string | null;
  /** How long a dashboard sign-in link works after it is minted (DASHBOARD_LINK_TTL_SECONDS, 900). */
  dashboardLinkTtlMs: number;
  /** Every this many ms the projector signs a ledger head if the log grew (LEDGER_HEAD_INTERVAL_MS, 0: never). */
  ledgerHeadIntervalMs: number;
  /** `off` stops the projector building the ledger: for measuring its cost only (LEDGER, docs/ledger.md). */
  ledger: 'on' | 'off';
}

/**
 * The configuration as the environment gives it; `adminToken` is null when ADMIN_TOKEN is not set
 * (the start-up step then reads or makes the one in DATA_DIR).
 */
export type ParsedConfig = Omit<AppConfig, 'adminToken'> & { adminToken: string | null };

export class ConfigError extends Error {}

/** The Standard Webhooks example schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_DELAYS_MS = [0, 5e3, 300e3, 1800e3, 7200e3, 18000e3, 36000e3, 50400e3, 72000e3, 86400e3];
export const DEFAULT_PAUSE_AFTER_FAILURES = 10;

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(`${name} must be one of: ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer (got "${value}")`);
  return n;
}

function required(name: string, value: string | undefined, when: string): string {
  if (!value) throw new ConfigError(`${name} is required when ${when}`);
  return value;
}

/** DATA_DIR as an absolute path (`./data` by default). */
export function dataDirOf(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.DATA_DIR || './data');
}

/**
 * Parses and checks the environment; touches nothing. A bad value throws a ConfigError naming the
 * variable (the service then stops with exit code 2).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ParsedConfig {
  const dataDir = dataDirOf(env);
  const deployment = oneOf('DEPLOYMENT', env.DEPLOYMENT, ['production', 'sandbox'] as const, 'production');
  const eventStore = oneOf('EVENT_STORE', env.EVENT_STORE, ['sqlite', 'eventstoredb'] as const, 'sqlite');
  const readStore = oneOf('READ_STORE', env.READ_STORE, ['sqlite', 'mongodb'] as const, 'sqlite');
  const subjectKeyStore = oneOf('SUBJECT_KEY_STORE', env.SUBJECT_KEY_STORE, ['sqlite', 'mongodb'] as const, readStore);
  const rateLimitStore = oneOf('RATE_LIMIT_STORE', env.RATE_LIMIT_STORE, ['memory', 'redis'] as const, 'memory');
  const retryDelays = env.WEBHOOK_RETRY_DELAYS_MS
    ? env.WEBHOOK_RETRY_DELAYS_MS.split(',').map((part) => {
        const n = Number(part.trim());
        if (!Number.isFinite(n) || n < 0) {
          throw new ConfigError(`WEBHOOK_RETRY_DELAYS_MS must be comma-separated non-negative numbers (got "${part}")`);
        }
        return n;
      })
    : DEFAULT_RETRY_DELAYS_MS;
  const allowPrivate = oneOf(
    'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    ['true', 'false'] as const,
    'false',
  );

  return {
    port: positiveInt('PORT', env.PORT, 3000),
    host: env.HOST || '0.0.0.0',
    dataDir,
    adminToken: env.ADMIN_TOKEN || null,
    deployment,
    eventStore,
    eventStoreDbUrl:
      eventStore === 'eventstoredb'
        ? required('EVENTSTOREDB_URL', env.EVENTSTOREDB_URL, 'EVENT_STORE=eventstoredb')
        : null,
    readStore,
    mongodbUrl:
      readStore === 'mongodb' || subjectKeyStore === 'mongodb'
        ? required(
            'MONGODB_URL',
            env.MONGODB_URL,
            readStore === 'mongodb' ? 'READ_STORE=mongodb' : 'SUBJECT_KEY_STORE=mongodb',
          )
        : null,
    subjectKeyStore,
    rateLimitStore,
    redisUrl: rateLimitStore === 'redis' ? required('REDIS_URL', env.REDIS_URL, 'RATE_LIMIT_STORE=redis') : null,
    rateLimitPerMinute: positiveInt(
      'RATE_LIMIT_PER_MINUTE',
      env.RATE_LIMIT_PER_MINUTE,
      deployment === 'sandbox' ? 100 : 1000,
    ),
    rateLimitPerSecond: positiveInt(
      'RATE_LIMIT_PER_SECOND',
      env.RATE_LIMIT_PER_SECOND,
      deployment === 'sandbox' ? 25 : 1000,
    ),
    webhookRetryDelaysMs: retryDelays,
    webhookPauseAfterFailures: positiveInt(
      'WEBHOOK_PAUSE_AFTER_FAILURES',
      env.WEBHOOK_PAUSE_AFTER_FAILURES,
      DEFAULT_PAUSE_AFTER_FAILURES,
    ),
    webhookAllowPrivateTargets: allowPrivate === 'true',
    projections: oneOf('PROJECTIONS', env.PROJECTIONS, ['inline', 'external'] as const, 'inline'),
    readYourWritesTimeoutMs: positiveInt('READ_YOUR_WRITES_TIMEOUT_MS', env.READ_YOUR_WRITES_TIMEOUT_MS, 10_000),
    logLevel: oneOf(
      'LOG_LEVEL',
      env.LOG_LEVEL,
      ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const,
      'info',
    ),
    readCache: oneOf('READ_CACHE', env.READ_CACHE, ['on', 'off'] as const, 'on'),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    publicUrl: publicUrlOf(env.PUBLIC_URL),
    dashboardLinkTtlMs: positiveInt('DASHBOARD_LINK_TTL_SECONDS', env.DASHBOARD_LINK_TTL_SECONDS, 900) * 1000,
    ledgerHeadIntervalMs:
      env.LEDGER_HEAD_INTERVAL_MS === '0'
        ? 0
        : positiveInt('LEDGER_HEAD_INTERVAL_MS', env.LEDGER_HEAD_INTERVAL_MS, 3_600_000),
    ledger: oneOf('LEDGER', env.LEDGER, ['on', 'off'] as const, 'on'),
  };
}

/** PUBLIC_URL: an http(s) origin, optionally with a path prefix; kept without its trailing slash. */
function publicUrlOf(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute http or https URL (got "${value}")`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash || url.username) {
    throw new ConfigError(
      `PUBLIC_URL must be an http or https URL without query, fragment or credentials (got "${value}")`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The names proxy-addr (Fastify's `trustProxy`) gives to address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or one of the range names. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: unset, empty or `false` is off; `true`; a hop
 * count (a positive integer); or comma-separated addresses and CIDR ranges.
 */
function trustProxyOf(value: string | undefined): AppConfig['trustProxy'] {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops === 0) return false;
    return { hops };
  }
  const addresses = text.split(',').map((entry) => entry.trim());
  const bad = addresses.find((entry) => !isProxyAddress(entry));
  if (bad !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, a hop count, or comma-separated IP addresses and CIDR ranges (got "${bad}" in "${value}")`,
    );
  }
  return { addresses };
}
