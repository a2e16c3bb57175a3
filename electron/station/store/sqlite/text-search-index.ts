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

export type TextColumn = 'tracking' | 'email' | 'skus';
type TextTable = 'return_packages' | 'returns';

/** The text index of a table. */
const indexOf = (table: TextTable): string => (table === 'returns' ? RETURNS.table : PACKAGES.table);

/**
 * A row's own lower-cased value of a column containing `?` (the text, lower-cased): the generated
 * columns of sqlite/layout.ts, or the return's SKU keys (kept lower-cased in its record).
 */
function rowContains(table: TextTable, column: TextColumn): string {
  // A value with a character beyond ASCII may hold one the index folds into ASCII (the Kelvin sign is
  // a "k" to it): that row asks the index itself, by its own key.
  const viaIndex = `EXISTS (SELECT 1 FROM ${indexOf(table)} WHERE ${indexOf(table)}.rowid = ${table}.k AND ${column} MATCH ?)`;
  const contains = (value: string) => `(instr(${value}, ?) > 0 OR (length(CAST(${value} AS BLOB)) <> length(${value}) AND ${viaIndex}))`;
  if (column === 'skus') return `EXISTS (SELECT 1 FROM json_each(${table}.v, '$.sku_keys') WHERE ${contains('value')})`;
  return contains(column === 'email' ? 'email_lc' : 'tracking_lc');
}

/**
 * The condition on the table for a column of its text index containing the text, in either of two
 * forms that select the same rows (docs/decisions/lists-from-sqlite.md, "A broad search"):
 * - `set`: the row is in the set of every match, read from the index (its cost grows with the
 *   matches: for a selective text); its parameter is `containsPhrase(text)`;
 * - `row`: each row's own value is checked as the list's index is walked, and the walk stops at the
 *   page (for a text most rows contain); its parameters are the text lower-cased and the phrase. Only
 *   for an ASCII text: SQLite's lower() folds ASCII, the index folds all of Unicode.
 */
export function containsCondition(
  table: TextTable,
  column: TextColumn,
  form: 'set' | 'row',
): { sql: string; params: (text: string) => string[]; reads: string } {
  if (form === 'set')
    return { sql: `k IN (SELECT rowid FROM ${indexOf(table)} WHERE ${column} MATCH ?)`, params: (text) => [containsPhrase(text)], reads: 'k' };
  // Its `?`s in the order they appear: the lower-cased text (instr), then the phrase (the index).
  return { sql: rowContains(table, column), params: (text) => [text.toLowerCase(), containsPhrase(text)], reads: ROW_READS[column] };
}

/** The columns a row's check reads, besides its key. */
const ROW_READS: Record<TextColumn, string> = { tracking: 'tracking_lc', email: 'email_lc', skus: 'v' };

/** Whether a text can be searched row by row (`row` form): ASCII only, as SQLite's lower() folds. */
export const rowSearchable = (text: string): boolean => /^[\x20-\x7e]*$/.test(text);

/** How many rows of the text index contain the text, counted up to a limit at most (parameters: `containsPhrase(text)`, the limit). */
export function containsProbe(table: TextTable, column: TextColumn): string {
  return `SELECT count(*) AS n FROM (SELECT 1 FROM ${indexOf(table)} WHERE ${column} MATCH ? LIMIT ?)`;
}

/** The text as one FTS5 phrase, taken literally (a quote doubled), so no query syntax applies. */
export function containsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}
