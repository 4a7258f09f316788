// Both builds have the same JavaScript API: the types are those of better-sqlite3.
import Database = require('better-sqlite3');
export = Database;
