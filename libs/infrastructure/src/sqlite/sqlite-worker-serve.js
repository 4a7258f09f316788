'use strict';
/**
 * The worker side of SqliteWorkerThread: answers each `{ id, request }` with `{ id, result }`
 * (or `{ id, failure }` when `handle` throws), in arrival order, and on `{ close }` closes its
 * database while the thread's environment is still whole, then lets the thread end by itself:
 * an orderly teardown instead of the main thread cutting it off with terminate().
 */
const { parentPort } = require('node:worker_threads');

function serveRequests(handle, close) {
  parentPort.on('message', (message) => {
    if (message.close) {
      close();
      parentPort.postMessage({ closed: true });
      parentPort.close();
      return;
    }
    try {
      parentPort.postMessage({ id: message.id, result: handle(message.request) });
    } catch (error) {
      parentPort.postMessage({ id: message.id, failure: String((error && error.message) || error) });
    }
  });
  parentPort.postMessage({ ready: true });
}

module.exports = { serveRequests };
