// A reference for durable writes, not a baseline of the targets: bare Fastify with group commit
// and nothing else. Each POST busy-waits BENCH_WORK_US (the work a real service does per request), then
// its row is written by a worker thread in one transaction with the rows that came while the
// batch before was being written (synchronous=FULL: one fsync a batch, off the event loop); a
// request is answered after its commit.
// `npm run bench:budget` measures it against the fsync-per-request baseline.
const { Worker } = require('node:worker_threads');
const { join } = require('node:path');
const fastify = require('fastify')({ logger: false });
const { ownWork } = require('./own-work');

const writer = new Worker(
  `
  const { parentPort, workerData } = require('node:worker_threads');
  const Database = require(workerData.driver);
  const db = new Database(workerData.file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE IF NOT EXISTS rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
  const insertAll = db.transaction((bodies) => bodies.map((body) => Number(insert.run(body).lastInsertRowid)));
  parentPort.on('message', (bodies) => parentPort.postMessage(insertAll(bodies)));
  `,
  {
    eval: true,
    workerData: {
      file: process.env.DB_FILE,
      driver: join(__dirname, '../../libs/infrastructure/src/sqlite/sqlite-driver'),
    },
  },
);

/** Rows waiting for the next batch, and the batch being written (one at a time). */
let waiting = [];
let writing = null;

function writeNext() {
  if (writing || waiting.length === 0) return;
  writing = waiting;
  waiting = [];
  writer.postMessage(writing.map((row) => row.body));
}

writer.on('message', (ids) => {
  const written = writing;
  writing = null;
  written.forEach((row, i) => row.resolve(ids[i]));
  writeNext();
});

fastify.post('/', async (request, reply) => {
  ownWork();
  const id = await new Promise((resolve) => {
    waiting.push({ body: JSON.stringify(request.body ?? {}), resolve });
    // Written at once when no batch is on its way; else with every row that came meanwhile.
    queueMicrotask(writeNext);
  });
  reply.code(201);
  return { id };
});
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
