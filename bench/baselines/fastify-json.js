// Baseline 1: the cheapest useful HTTP answer on this machine — bare Fastify, a small JSON object.
const fastify = require('fastify')({ logger: false });

const body = { id: 'prj_baseline', name: 'Baseline', status: 'planned', archived: false };
fastify.get('/', async () => body);
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
