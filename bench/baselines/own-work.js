/**
 * The work a server does per request beyond the baseline's, as time on the event loop:
 * `BENCH_WORK_US` microseconds of busy waiting (0 by default; `npm run bench` sets 0 for its
 * baselines whatever the environment says). `npm run bench:budget` sets it to find how much work
 * per request each target leaves room for.
 */
const WORK_NS = BigInt(Math.round(Number(process.env.BENCH_WORK_US ?? 0) * 1000));

function ownWork() {
  if (WORK_NS === 0n) return;
  const end = process.hrtime.bigint() + WORK_NS;
  while (process.hrtime.bigint() < end);
}

module.exports = { ownWork };
