'use strict';
/**
 * The worker side of SqliteWorkerThread: answers each `{ id, request }` with `{ id, result }`
 * (or `{ id, failure }` when `handle` throws), in arrival order, and on `{ close }` closes its
 * database while the thread's environment is still whole, then lets the thread end by itself:
 * an orderly teardown instead of the main thread cutting it off with terminate().
 */
const { parentPort, workerData } = require('node:worker_threads');

function serveRequests(handle, close) {
  // Answers go through the port the main thread gave for them (which it reads once more, at
  // once, when the thread exits: no answer posted before the exit is taken for lost); lifecycle
  // messages through the parent port.
  const answers = (workerData && workerData.answerPort) || parentPort;
  parentPort.on('message', (message) => {
    if (message.close) {
      close();
      parentPort.postMessage({ closed: true });
      if (answers !== parentPort) answers.close();
      parentPort.close();
      return;
    }
    try {
      answers.postMessage({ id: message.id, result: handle(message.request) });
    } catch (error) {
      answers.postMessage({ id: message.id, failure: String((error && error.message) || error) });
    }
  });
  parentPort.postMessage({ ready: true });
}

module.exports = { serveRequests };
