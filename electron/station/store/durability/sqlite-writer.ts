import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { DBCoreKeyRange } from 'dexie';
import { quoteIdent } from '../sqlite/layout.ts';
import { isBound, type Mutation, type StoreKey } from './mutations.ts';

interface TableStatements {
  upsert: StatementSync;
  remove: StatementSync;
  select: StatementSync;
}

/** Writes recorded mutations to SQLite and reads rows back for loading and repair. */
export interface SqliteWriter {
  /** Applies every mutation in one SQLite transaction; throws (after rolling back) if it cannot commit. */
  commit(mutations: readonly Mutation[], extra?: () => void): void;
  /** The stored JSON of a key, or undefined. */
  read(table: string, key: StoreKey): string | undefined;
  /** Stored rows inside a key range. */
  readRange(table: string, range: DBCoreKeyRange): Array<{ k: StoreKey; v: string }>;
}

export function createSqliteWriter(db: DatabaseSync, autoIncrementTables: ReadonlySet<string>): SqliteWriter {
  const statements = new Map<string, TableStatements>();
  const statementsFor = (table: string): TableStatements => {
    let found = statements.get(table);
    if (!found) {
      const name = quoteIdent(table);
      found = {
        upsert: db.prepare(`INSERT INTO ${name} (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v`),
        remove: db.prepare(`DELETE FROM ${name} WHERE k = ?`),
        select: db.prepare(`SELECT v FROM ${name} WHERE k = ?`),
      };
      statements.set(table, found);
    }
    return found;
  };
  const bumpSequence = db.prepare('INSERT INTO _sequences (name, last) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET last = max(last, excluded.last)');

  return {
    commit(mutations, extra) {
      db.exec('BEGIN IMMEDIATE');
      try {
        // The highest key each auto-increment table handed out, so ids are never reused after a reload.
        const highest = new Map<string, number>();
        for (const mutation of mutations) {
          if (mutation.kind === 'put') {
            statementsFor(mutation.table).upsert.run(mutation.key, mutation.json);
            if (typeof mutation.key === 'number' && autoIncrementTables.has(mutation.table)) {
              highest.set(mutation.table, Math.max(highest.get(mutation.table) ?? 0, mutation.key));
            }
          } else if (mutation.kind === 'delete') {
            statementsFor(mutation.table).remove.run(mutation.key);
          } else {
            const { where, params } = rangeCondition(mutation.range);
            db.prepare(`DELETE FROM ${quoteIdent(mutation.table)}${where}`).run(...params);
          }
        }
        for (const [table, last] of highest) bumpSequence.run(table, last);
        extra?.();
        db.exec('COMMIT');
      } catch (error) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    read(table, key) {
      const row = statementsFor(table).select.get(key) as { v: string } | undefined;
      return row?.v;
    },
    readRange(table, range) {
      const { where, params } = rangeCondition(range);
      return db.prepare(`SELECT k, v FROM ${quoteIdent(table)}${where}`).all(...params) as Array<{ k: StoreKey; v: string }>;
    },
  };
}

/** A Dexie key range as SQL over `k`; Dexie's min/max markers (±Infinity, arrays) mean "unbounded". */
function rangeCondition(range: DBCoreKeyRange): { where: string; params: SQLInputValue[] } {
  if (range.type === 4) return { where: ' WHERE 0', params: [] };
  if (range.type === 3) return { where: '', params: [] };
  const conditions: string[] = [];
  const params: SQLInputValue[] = [];
  if (isBound(range.lower)) {
    conditions.push(range.lowerOpen ? 'k > ?' : 'k >= ?');
    params.push(range.lower);
  }
  if (isBound(range.upper)) {
    conditions.push(range.upperOpen ? 'k < ?' : 'k <= ?');
    params.push(range.upper);
  }
  return { where: conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '', params };
}
