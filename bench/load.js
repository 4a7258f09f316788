// The load generator, always in its own process so it never competes with the server's event
// loop: runs autocannon with the options given as JSON (in argv[2], or on stdin) and prints the
// result as JSON.
const { readFileSync } = require('node:fs');
const autocannon = require('autocannon');

const options = JSON.parse(process.argv[2] ?? readFileSync(0, 'utf8'));
const requests = options.requests;
delete options.requests;
if (requests) {
  // A rotating set of request templates, e.g. PATCHes of different fields.
  let i = 0;
  options.requests = [
    {
      setupRequest: (request) => {
        const next = requests[i++ % requests.length];
        return { ...request, ...next };
      },
    },
  ];
}
autocannon(options, (error, result) => {
  if (error) {
    process.stderr.write(String(error.stack ?? error));
    process.exit(1);
  }
  process.stdout.write(
    JSON.stringify({
      requests: result.requests.total,
      rps: result.requests.average,
      latency: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        max: result.latency.max,
      },
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      duration: result.duration,
    }),
  );
});
