/**
 * Sizes of the reliability suites (test/reliability, docs/reliability.md). The CI profile keeps
 * the whole suite within a few minutes so it runs on every `npm test`; the release profile is the
 * longer run made before a release: `RELIABILITY_PROFILE=release npx jest test/reliability`.
 */
export interface ReliabilityProfile {
  name: 'ci' | 'release';
  crash: {
    /** SIGKILLs of the service, each followed by a restart on the same DATA_DIR and a full check. */
    kills: number;
    /** Concurrent writers while the service runs. */
    writers: number;
    /** Projects (with two jobs each) written before the first kill, so a rebuild takes long enough to be interrupted. */
    seedProjects: number;
    /** Upper bound of live projects and jobs the workload creates (keeps every check bounded). */
    maxProjects: number;
    maxJobs: number;
  };
  fuzz: {
    /** Requests generated from the endpoint schemas and sent. */
    requests: number;
    /** Requests in flight at once. */
    concurrency: number;
  };
  concurrency: {
    /** Rounds of the mixed cross-endpoint storm. */
    stormRounds: number;
  };
  /** Jest timeout per suite, generous: a hung suite must still end. */
  suiteTimeoutMs: number;
}

const PROFILES: Record<ReliabilityProfile['name'], ReliabilityProfile> = {
  ci: {
    name: 'ci',
    crash: { kills: 10, writers: 12, seedProjects: 300, maxProjects: 600, maxJobs: 1200 },
    fuzz: { requests: 10_000, concurrency: 24 },
    concurrency: { stormRounds: 2 },
    suiteTimeoutMs: 240_000,
  },
  release: {
    name: 'release',
    crash: { kills: 50, writers: 24, seedProjects: 1500, maxProjects: 3000, maxJobs: 6000 },
    fuzz: { requests: 100_000, concurrency: 32 },
    concurrency: { stormRounds: 10 },
    suiteTimeoutMs: 1_800_000,
  },
};

export function reliabilityProfile(env: NodeJS.ProcessEnv = process.env): ReliabilityProfile {
  const name = (env.RELIABILITY_PROFILE || 'ci').toLowerCase();
  const profile = PROFILES[name as ReliabilityProfile['name']];
  // A typo must not silently run the short profile when the long one was meant.
  if (!profile)
    throw new Error(`RELIABILITY_PROFILE must be one of: ${Object.keys(PROFILES).join(', ')} (got "${name}")`);
  return profile;
}

/** Rate limits high enough that the limiter never answers in place of the code under test. */
export const UNLIMITED_RATE = { RATE_LIMIT_PER_MINUTE: '1000000000', RATE_LIMIT_PER_SECOND: '1000000000' };
