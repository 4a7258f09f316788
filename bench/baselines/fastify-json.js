// Baseline 1: the cheapest useful HTTP answer on this machine — bare Fastify, a small JSON object.
// With BENCH_WORK_US, each request also busy-waits that long first (`npm run bench:budget`).
const fastify = require('fastify')({ logger: false });
const { ownWork } = require('./own-work');

const body = { id: 'prj_baseline', name: 'Baseline', status: 'planned', archived: false };
fastify.get('/', async () => {
  ownWork();
  return body;
});
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
