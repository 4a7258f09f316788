// Both builds have the same JavaScript API: the types are those of better-sqlite3.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the `export =` form of better-sqlite3's types
import Database = require('better-sqlite3');
export = Database;
