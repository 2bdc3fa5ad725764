import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { native, statementPointer } from '../../../src/main/engine/sqlite/native';
import { loadSqlJs } from '../../../src/main/engine/sqlite/sql-js';
import { ROOT } from '../../helpers/deskstore-process';

/**
 * Bulk inserts and SQL result typing reach into sql.js for the raw sqlite3_stmt* (native.ts):
 * without it they fall back to sql.js's own binding, which is right but several times slower.
 * Pin that the fast path works with the sql.js version installed, so an upgrade that loses it
 * fails here, loudly, instead of making imports silently slow.
 */
describe(`sql.js ${JSON.parse(readFileSync(join(ROOT, 'node_modules/sql.js/package.json'), 'utf8')).version as string} fast path`, () => {
  it('finds the native statement pointer of a prepared statement', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      db.exec('CREATE TABLE t (a TEXT, b REAL)');
      const sql = 'INSERT INTO t VALUES (?, ?)';
      const stmt = db.prepare(sql);
      const pointer = statementPointer(SQL, stmt, sql);
      expect(pointer).not.toBeNull();
      // The pointer is usable with the raw C API: bind, step, reset through it.
      const c = native(SQL);
      const text = new TextEncoder().encode('héllo');
      const at = c._malloc(text.length);
      c.writeArrayToMemory(text, at);
      expect(c._sqlite3_bind_text(pointer!, 1, at, text.length, -1)).toBe(0);
      expect(c._sqlite3_bind_double(pointer!, 2, 2.5)).toBe(0);
      expect(c._sqlite3_step(pointer!)).toBe(101); // SQLITE_DONE
      c._free(at);
      stmt.free();
      expect(db.exec('SELECT a, b, typeof(b) FROM t')[0]!.values).toEqual([['héllo', 2.5, 'real']]);
    } finally {
      db.close();
    }
  });

  it("reads each value's storage class through the pointer", async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    try {
      const sql = "SELECT 1.0, 2, 'x', NULL";
      const stmt = db.prepare(sql);
      const pointer = statementPointer(SQL, stmt, sql);
      expect(pointer).not.toBeNull();
      expect(stmt.step()).toBe(true);
      expect([0, 1, 2, 3].map((col) => native(SQL)._sqlite3_column_type(pointer!, col))).toEqual([2, 1, 3, 5]);
      stmt.free();
    } finally {
      db.close();
    }
  });
});
