// Baseline 2: one durable write per request — bare Fastify inserting one row into a SQLite WAL
// table with synchronous=FULL, i.e. an fsync per request, which blocks the event loop.
// The same driver choice as the service (Node 24 needs better-sqlite3 13, Node 20 the 12 build).
const Database = require('../../libs/infrastructure/src/sqlite/sqlite-driver');
const fastify = require('fastify')({ logger: false });

const db = new Database(process.env.DB_FILE);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');

fastify.post('/', async (request, reply) => {
  const info = insert.run(JSON.stringify(request.body ?? {}));
  reply.code(201);
  return { id: Number(info.lastInsertRowid) };
});
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
