'use strict';
/**
 * `npm start`'s Node flags (the young generation's cap): the benchmark and the multi-process tests
 * start the service with them, as operators do. Read from package.json, the one place they are
 * written for a launch from this repository.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

function startFlags() {
  const start = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).scripts.start;
  return start.split(' ').filter((arg) => arg.startsWith('--'));
}

module.exports = { startFlags };
