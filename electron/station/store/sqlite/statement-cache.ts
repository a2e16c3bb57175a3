import type { DatabaseSync, StatementSync } from 'node:sqlite';

/**
 * `db.prepare`, once per SQL text: the store's reads build their SQL from a few shapes (a table, a
 * filter's columns) and run them many times, and preparing costs more than most of them run.
 */
export function statementCache(db: DatabaseSync): (sql: string) => StatementSync {
  const statements = new Map<string, StatementSync>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
