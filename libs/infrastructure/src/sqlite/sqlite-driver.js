'use strict';
/**
 * The one place that picks the better-sqlite3 build; every SQLite adapter (and the append
 * writer's worker thread) requires the driver from here, never `better-sqlite3` directly.
 *
 * better-sqlite3 12 wraps its objects in Node's raw `node::ObjectWrap`. Node 24.19 changed that
 * header: each wrapped object now registers an environment cleanup hook, and its destructor
 * removes it with a CHECK that a Node environment is current. A prepared statement collected by
 * the garbage collector where none is (a collection during start-up, the teardown of a worker)
 * aborts the whole process (`Assertion failed: (env) != nullptr` in
 * `RemoveEnvironmentCleanupHook`, from `Statement::~Statement`). better-sqlite3 13 is built on
 * Node-API, whose finalizers have no such hook, and ships prebuilt binaries; but it needs
 * Node-API 10 (Node 22.14+, 24) and crashes on load on Node 20. So: 13 wherever the runtime has
 * Node-API 10, and 12 (the optional dependency `better-sqlite3-node20`) only on older runtimes,
 * whose headers have no such hook.
 */
const NODE_API_FOR_13 = 10;

function load() {
  if (Number(process.versions.napi) >= NODE_API_FOR_13) return require('better-sqlite3');
  try {
    return require('better-sqlite3-node20');
  } catch (error) {
    throw new Error(
      `Node ${process.version} (Node-API ${process.versions.napi}) needs better-sqlite3 12, the optional ` +
        `dependency better-sqlite3-node20, which did not install (it compiles on install when no ` +
        `prebuilt binary can be downloaded: python3, make and a C++ compiler). Node 22.14+ or 24 ` +
        `need none of that. Cause: ${(error && error.message) || error}`,
      { cause: error },
    );
  }
}

module.exports = load();
