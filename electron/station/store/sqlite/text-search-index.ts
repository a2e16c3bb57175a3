import type { DatabaseSync } from 'node:sqlite';
import { ensureIndexOnce } from './side-index.ts';

/*
 * "Any part of" search: a tracking number, an email or a SKU containing the text ("wbn" finds the
 * returns with a line AC-WBN-01). A B-tree serves only a start, so each searchable text is also kept
 * in an FTS5 table with the `trigram` tokenizer (case-insensitive), whose row id is the record's key:
 * a text of 3 or more characters is a phrase of its trigrams, found from the index. Shorter texts
 * have no trigram; they keep the prefix search (list-queries.ts). Triggers on the indexed table keep
 * it, as for the side indexes (side-index.ts); a data directory of an earlier version is filled once.
 */

interface TextSearchIndex {
  of: 'return_packages' | 'returns';
  table: string;
  triggers: string;
  /** Each searchable column and its SQL expression over the record's JSON `v`. */
  columns: ReadonlyArray<readonly [name: string, expression: (v: string) => string]>;
}

/** A return's SKUs (trimmed and lower-cased, `sku_keys`) as one text, a line apart. */
const skusOf = (v: string) => `(SELECT group_concat(value, char(10)) FROM json_each(${v}, '$.sku_keys'))`;

const PACKAGES: TextSearchIndex = {
  of: 'return_packages',
  table: '_package_text',
  triggers: '_packages_text',
  columns: [['tracking', (v) => `json_extract(${v}, '$.tracking_number')`]],
};

const RETURNS: TextSearchIndex = {
  of: 'returns',
  table: '_return_text',
  triggers: '_returns_text',
  columns: [
    ['email', (v) => `json_extract(${v}, '$.email')`],
    ['skus', skusOf],
  ],
};

function indexSql(x: TextSearchIndex): string {
  const names = x.columns.map(([name]) => name).join(', ');
  const add = (v: string, k: string) => `INSERT INTO ${x.table} (rowid, ${names}) SELECT ${k}, ${x.columns.map(([, e]) => e(v)).join(', ')};`;
  return `
CREATE VIRTUAL TABLE IF NOT EXISTS ${x.table} USING fts5(${names}, tokenize = 'trigram');
CREATE TRIGGER IF NOT EXISTS ${x.triggers}_insert AFTER INSERT ON ${x.of} BEGIN
  ${add('NEW.v', 'NEW.k')}
END;
CREATE TRIGGER IF NOT EXISTS ${x.triggers}_update AFTER UPDATE OF v ON ${x.of} BEGIN
  DELETE FROM ${x.table} WHERE rowid = OLD.k;
  ${add('NEW.v', 'NEW.k')}
END;
CREATE TRIGGER IF NOT EXISTS ${x.triggers}_delete AFTER DELETE ON ${x.of} BEGIN
  DELETE FROM ${x.table} WHERE rowid = OLD.k;
END;
`;
}

function ensureTextSearch(sqlite: DatabaseSync, x: TextSearchIndex): void {
  const names = x.columns.map(([name]) => name).join(', ');
  ensureIndexOnce(sqlite, {
    of: x.of,
    triggers: x.triggers,
    sql: indexSql(x),
    backfill: [`INSERT INTO ${x.table} (rowid, ${names}) SELECT k, ${x.columns.map(([, e]) => e('v')).join(', ')} FROM ${x.of}`],
  });
}

/** Creates the text search indexes of packages and returns if this data directory lacks them (filled from its records). */
export function ensureTextSearchIndex(sqlite: DatabaseSync): void {
  ensureTextSearch(sqlite, PACKAGES);
  ensureTextSearch(sqlite, RETURNS);
}

/** Shorter texts have no trigram: they are searched as a start (a prefix range). */
export const MIN_CONTAINS_LENGTH = 3;

/** The condition on the table for a column of its text index containing the text (a parameter from `containsPhrase`). */
export function containsCondition(table: 'return_packages' | 'returns', column: 'tracking' | 'email' | 'skus'): string {
  return `k IN (SELECT rowid FROM ${table === 'returns' ? RETURNS.table : PACKAGES.table} WHERE ${column} MATCH ?)`;
}

/** The text as one FTS5 phrase, taken literally (a quote doubled), so no query syntax applies. */
export function containsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
