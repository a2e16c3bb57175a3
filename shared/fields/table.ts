import { z } from 'zod';
import { normaliseTimestamp } from '../api/common.ts';

/*
 * A record's field table: each field once, with everything the station derives from it — the
 * contract's request and answer schemas (and so `/openapi.json`), the store's record type, what sync
 * reads from the upstream's records, who owns a field and when it goes up. The tables themselves
 * are beside this file (return-package.ts, …); this file holds their vocabulary and derivations.
 */

/** The answers a field appears in: L a list item, C the create's answer, G a get, U the update's answer. */
export type AnswerName = 'L' | 'C' | 'G' | 'U';

/**
 * Whose value wins between the station and the upstream returns service: `dock` (the station's:
 * what was done at the dock), `office` (the upstream's: the back office's plan), `station` (never
 * exchanged: the station's own, or an identity sync maps itself).
 */
export type Owner = 'dock' | 'office' | 'station';

/**
 * When the station sends it up: in the body of a create, in an update whenever it changed, both, or
 * never. Explicit for every field: a new field goes up only when its row says so.
 */
export type Up = 'create' | 'change' | 'create+change' | 'never';

/** A value the station keeps on the record. */
export interface ValueField {
  /** The value as the store keeps it and the answers give it. */
  type: z.ZodType;
  /** The answers it appears in at the top level (`'LCGU'`, `'G'`, `''`); a group's member appears in its group. */
  in: string;
  /** Its schema in the create body (with its default); absent: a create cannot give it. */
  create?: z.ZodType;
  /** Its schema in the update body (optional); absent: an update cannot change it. */
  update?: z.ZodType;
  owner: Owner;
  up: Up;
  /**
   * How sync reads it from an upstream record, as a tolerant reader: a missing, malformed or
   * unreadable value is left out (the station keeps its own). `known`: a value of the field's
   * closed list, another is left out and named for a person. `each`: a list of records of the
   * table `of`, each read by its rows. Absent: not read.
   */
  read?: z.ZodType | 'known' | 'each';
  /** A list of embedded records (a return's lines): their own field table. */
  of?: FieldTable;
  /** What a record made from an upstream answer keeps when the upstream leaves the value out (or null). */
  empty?: unknown;
  /** Read and needed: an upstream record without it cannot be stored. */
  needed?: true;
  /** Absent on records stored before the field existed (read as null). */
  since?: true;
}

/** An answer's object made of several kept values (`dimensions`): its members are kept flat. */
export interface GroupField<M extends Record<string, ValueField> = Record<string, ValueField>> {
  members: M;
  type: z.ZodObject;
  in: string;
}

/** A value a view makes from related records (a carrier, the line items): not kept on the record. */
export interface RelatedField {
  related: true;
  type: z.ZodType;
  in: string;
  /** Its type in an answer where it differs. */
  answers?: Partial<Record<AnswerName, z.ZodType>>;
}

export type FieldRow = ValueField | GroupField | RelatedField;
export type FieldTable = Record<string, FieldRow>;

// ---------------------------------------------------------------------------------------------
// Building rows

/** Optional in both bodies: null when a create leaves it out, and null clears it in an update. */
export function settable<S extends z.ZodType>(input: S) {
  const nullable = input.nullable();
  return { create: nullable.default(null), update: nullable.optional() };
}

/** How sync reads an upstream timestamp: normalised to the station's UTC form, so values compare equal on both sides. */
export const upstreamTimestamp = z.string().transform((value, ctx) => {
  const normalised = normaliseTimestamp(value);
  if (normalised === null) {
    ctx.addIssue({ code: 'custom', message: 'Expected an ISO 8601 timestamp.' });
    return z.NEVER;
  }
  return normalised;
});

/** A group of kept values shown as one object (in its members' order). */
export function group<M extends Record<string, ValueField>, In extends string>(
  members: M,
  shownIn: In,
): GroupField<M> & { in: In; type: z.ZodObject<{ -readonly [K in keyof M]: M[K]['type'] }> } {
  const shape = Object.fromEntries(Object.entries(members).map(([name, row]) => [name, row.type]));
  return { members, in: shownIn, type: z.object(shape) as z.ZodObject<{ -readonly [K in keyof M]: M[K]['type'] }> };
}

// ---------------------------------------------------------------------------------------------
// Types derived from a table

type Values<T> = { [K in keyof T as T[K] extends ValueField ? K : never]: T[K] };
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type GroupMembers<T> = UnionToIntersection<{ [K in keyof T]: T[K] extends GroupField<infer M> ? M : never }[keyof T]>;

/** Every kept value of the table, group members flat. */
export type ValueRows<T> = Values<T> & (GroupMembers<T> extends Record<string, ValueField> ? GroupMembers<T> : unknown);

type Shown<F, A extends AnswerName> = F extends { in: `${string}${A}${string}` } ? true : false;
type AnswerType<F, A extends AnswerName> = F extends { answers: { [P in A]: infer S extends z.ZodType } }
  ? S
  : F extends { type: infer S extends z.ZodType }
    ? S
    : never;

/** The zod shape of one answer. */
export type AnswerShape<T, A extends AnswerName> = { -readonly [K in keyof T as Shown<T[K], A> extends true ? K : never]: AnswerType<T[K], A> };
/** The zod shape of the create or the update body. */
export type BodyShape<T, B extends 'create' | 'update'> = {
  -readonly [K in keyof ValueRows<T> as ValueRows<T>[K] extends { [P in B]: z.ZodType } ? K : never]: ValueRows<T>[K] extends {
    [P in B]: infer S extends z.ZodType;
  }
    ? S
    : never;
};

/** The kept value's type of a row. */
export type Out<F> = F extends { type: infer S extends z.ZodType } ? z.output<S> : never;
/** The record the store keeps: every value, those added later optional. */
export type RecordOf<T> = { -readonly [K in keyof ValueRows<T> as ValueRows<T>[K] extends { since: true } ? never : K]: Out<ValueRows<T>[K]> } & {
  -readonly [K in keyof ValueRows<T> as ValueRows<T>[K] extends { since: true } ? K : never]?: Out<ValueRows<T>[K]>;
};
/** The values a new record starts with: null for each that may be null, except those added later. */
export type BlankValues<T> = {
  -readonly [K in keyof ValueRows<T> as ValueRows<T>[K] extends { since: true } ? never : null extends Out<ValueRows<T>[K]> ? K : never]: null;
};
/** The values of the fields that have an empty value (what a record made from an upstream answer keeps). */
export type EmptyValues<T> = { -readonly [K in keyof ValueRows<T> as ValueRows<T>[K] extends { empty: unknown } ? K : never]: Out<ValueRows<T>[K]> };
/** The fields of a table exchanged with the upstream (owned by the dock or the back office). */
export type SyncedName<T> = { [K in keyof ValueRows<T>]: ValueRows<T>[K] extends { owner: 'dock' | 'office' } ? K : never }[keyof ValueRows<T>] & string;

// ---------------------------------------------------------------------------------------------
// Derivations

const isGroup = (row: FieldRow): row is GroupField => 'members' in row;
const isRelated = (row: FieldRow): row is RelatedField => 'related' in row;

/** Every kept value, group members flat, in table order. */
export function valueRows<T extends FieldTable>(table: T): Array<[keyof ValueRows<T> & string, ValueField]> {
  const out: Array<[string, ValueField]> = [];
  for (const [name, row] of Object.entries(table)) {
    if (isGroup(row)) out.push(...Object.entries(row.members));
    else if (!isRelated(row)) out.push([name, row]);
  }
  return out as Array<[keyof ValueRows<T> & string, ValueField]>;
}

/** The names of the kept values that match. */
export function namesWhere<T extends FieldTable>(table: T, match: (row: ValueField) => boolean): Array<keyof ValueRows<T> & string> {
  return valueRows(table)
    .filter(([, row]) => match(row))
    .map(([name]) => name);
}

/** One answer's schema: the fields shown in it, in table order. */
export function answerSchema<T extends FieldTable, A extends AnswerName>(table: T, answer: A): z.ZodObject<AnswerShape<T, A>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, row] of Object.entries(table)) {
    if (row.in.includes(answer)) shape[name] = (isRelated(row) ? row.answers?.[answer] : undefined) ?? row.type;
  }
  return z.object(shape) as unknown as z.ZodObject<AnswerShape<T, A>>;
}

/** The create or the update body's shape: the values a body may give, in table order. */
export function bodyShape<T extends FieldTable, B extends 'create' | 'update'>(table: T, body: B): BodyShape<T, B> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, row] of valueRows(table)) {
    const schema = row[body];
    if (schema !== undefined) shape[name] = schema;
  }
  return shape as BodyShape<T, B>;
}

/**
 * What a view of an answer takes from the record: each value (null when added later and absent) and
 * each group as its object. Made once per table: a view runs per record of every answer.
 */
export function answerValuesOf(table: FieldTable): (record: object) => Record<string, unknown> {
  const plan: Array<[string, ValueField | GroupField]> = Object.entries(table).filter(
    (entry): entry is [string, ValueField | GroupField] => !isRelated(entry[1]),
  );
  return (record) => {
    const values = record as Readonly<Record<string, unknown>>;
    const valueOf = (name: string, row: ValueField) => (row.since ? (values[name] ?? null) : values[name]);
    const out: Record<string, unknown> = {};
    for (const [name, row] of plan) {
      if (isGroup(row)) {
        const object: Record<string, unknown> = {};
        for (const [member, memberRow] of Object.entries(row.members)) object[member] = valueOf(member, memberRow);
        out[name] = object;
      } else out[name] = valueOf(name, row);
    }
    return out;
  };
}

/** A record's values of the fields that match, in table order. */
export function pickWhere(table: FieldTable, record: object, match: (row: ValueField) => boolean): Record<string, unknown> {
  const values = record as Readonly<Record<string, unknown>>;
  return Object.fromEntries(namesWhere(table, match).map((name) => [name, values[name]]));
}

/**
 * An upstream record's values over a kept one's (fields with an `empty`): the upstream's where it
 * gives one, else the kept value, else the field's empty value (a record new to the station).
 */
export function takeUpstream<T extends FieldTable>(table: T, upstream: object, kept: object | undefined): EmptyValues<T> {
  const given = upstream as Readonly<Record<string, unknown>>;
  const mine = kept as Readonly<Record<string, unknown>> | undefined;
  const out: Record<string, unknown> = {};
  for (const [name, row] of valueRows(table)) if (row.empty !== undefined) out[name] = given[name] ?? mine?.[name] ?? row.empty;
  return out as EmptyValues<T>;
}

/** The values a new record starts with: null for each that may be null (added-later fields stay absent). */
export function blankValues<T extends FieldTable>(table: T): BlankValues<T> {
  return Object.fromEntries(
    valueRows(table).flatMap(([name, row]) => (!row.since && row.type.safeParse(null).success ? [[name, null]] : [])),
  ) as BlankValues<T>;
}

/** A closed list's values (`read: 'known'`): the options of the field's enum, null or not. */
export function knownValues(row: ValueField): readonly string[] {
  const inner = row.type instanceof z.ZodNullable ? row.type.unwrap() : row.type;
  if (!(inner instanceof z.ZodEnum)) throw new Error('A field read as known is an enum.');
  return inner.options as readonly string[];
}

/** Whether the field goes up in a create, or in an update when it changed. */
export const goesUpOnCreate = (row: ValueField): boolean => row.up === 'create' || row.up === 'create+change';
export const goesUpOnChange = (row: ValueField): boolean => row.up === 'change' || row.up === 'create+change';
export const isSynced = (row: ValueField): boolean => row.owner !== 'station';
