import { z } from 'zod';
import { RETURN_FIELDS } from '#shared/fields/return.ts';
import { RETURN_PACKAGE_FIELDS } from '#shared/fields/return-package.ts';
import { type FieldTable, knownValues, type Out, type ValueField, type ValueRows } from '#shared/fields/table.ts';

/*
 * What sync reads from the upstream, read as a tolerant reader (docs/decisions/sync.md): any server
 * of the returns service interface. A record needs only what the station cannot do without (an id; a
 * package's tracking number and return); every other field that is missing, null, malformed or a
 * value the station does not know is left out, so the station keeps its own value, and an unknown
 * value is named in the record's `notes` for a person. One bad record never blocks its page.
 * Timestamps are normalised to the station's UTC form so values compare equal on both sides.
 */

/** A field the reader can do without: absent when missing or unreadable, null when the upstream says null. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional().catch(undefined);

type ReadRows<T> = { [K in keyof ValueRows<T> as ValueRows<T>[K] extends { read: unknown } ? K : never]: ValueRows<T>[K] };
type ReadValue<F> = F extends { read: 'each'; of: infer N }
  ? Array<UpstreamRecordOf<N>>
  : F extends { read: 'known' }
    ? Out<F>
    : F extends { read: infer S extends z.ZodType }
      ? z.output<S>
      : never;
/** An upstream record as read: the fields it needs, and those it gave that the station could take. */
export type UpstreamRecordOf<T> = { -readonly [K in keyof ReadRows<T> as ReadRows<T>[K] extends { needed: true } ? K : never]: ReadValue<ReadRows<T>[K]> } & {
  -readonly [K in keyof ReadRows<T> as ReadRows<T>[K] extends { needed: true } ? never : K]?: ReadValue<ReadRows<T>[K]> | null;
} & {
  /** What the station could not take from this record, for a person ("status `x` is unknown to this station"). */
  notes_for_person?: string[];
};

/** A field read from a closed list: another value is left out and named; null only where the field may be null. */
interface KnownRead {
  values: readonly string[];
  nullable: boolean;
}

/**
 * A table's fields as one tolerant schema: the needed ones must read; every other one read is taken
 * when it reads, else left out; a group's object is read as a whole and its members each on their own.
 */
function readSchemaOf(table: FieldTable, known: Map<string, KnownRead> = new Map()): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  const add = (target: Record<string, z.ZodType>, name: string, row: ValueField) => {
    if (row.read === undefined) return;
    if (row.read === 'known') known.set(name, { values: knownValues(row), nullable: row.type.safeParse(null).success });
    const schema = row.read === 'each' ? z.array(readSchemaOf(row.of ?? {})) : row.read === 'known' ? z.string() : row.read;
    target[name] = row.needed ? schema : optional(schema);
  };
  for (const [name, row] of Object.entries(table)) {
    if ('members' in row) {
      const members: Record<string, z.ZodType> = {};
      for (const [member, memberRow] of Object.entries(row.members)) add(members, member, memberRow);
      shape[name] = optional(z.object(members));
    } else if (!('related' in row)) add(shape, name, row);
  }
  return z.object(shape);
}

/**
 * The reader of a field table: a record whose needed fields do not read is unreadable; of the rest,
 * what reads is taken (a group's members flat, as the store keeps them), a value outside a closed
 * list is left out and named for a person.
 */
function readerOf<T extends FieldTable>(table: T, what: string): (raw: unknown) => Read<UpstreamRecordOf<T>> {
  const known = new Map<string, KnownRead>();
  const schema = readSchemaOf(table, known);
  const groups = new Set(Object.entries(table).flatMap(([name, row]) => ('members' in row ? [name] : [])));
  return (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return { ok: false, unreadable: { upstream_id: idOf(raw), message: `${what} cannot be stored (${describe(parsed.error)})` } };
    const record: Record<string, unknown> = {};
    const notes: string[] = [];
    const take = (name: string, value: unknown) => {
      if (value === undefined) return;
      const closed = known.get(name);
      if (closed && value === null && !closed.nullable) return;
      if (closed && typeof value === 'string' && !closed.values.includes(value)) {
        notes.push(`${name} \`${value}\` is unknown to this station`);
        return;
      }
      record[name] = value;
    };
    for (const [name, value] of Object.entries(parsed.data)) {
      if (!groups.has(name)) take(name, value);
      else if (isObject(value)) for (const [member, memberValue] of Object.entries(value)) take(member, memberValue);
    }
    if (notes.length > 0) record.notes_for_person = notes;
    return { ok: true, record: record as UpstreamRecordOf<T> };
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export type UpstreamPackage = UpstreamRecordOf<typeof RETURN_PACKAGE_FIELDS>;

/** A record the station could not read at all: its upstream id when it has one, and why. */
export interface UnreadableRecord {
  upstream_id: number | null;
  message: string;
}

export type Read<T> = { ok: true; record: T } | { ok: false; unreadable: UnreadableRecord };

function idOf(raw: unknown): number | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'record'}: ${i.message}`).join('; ');
}

const readPackage = readerOf(RETURN_PACKAGE_FIELDS, 'package');
/** A list item names its carrier as `carrier` (with its id), not `carrier_id`. */
const CarrierOfListItem = optional(z.object({ id: z.int() }));

export function readUpstreamPackage(raw: unknown): Read<UpstreamPackage> {
  const read = readPackage(raw);
  if (read.ok && read.record.carrier_id === undefined && isObject(raw)) {
    const carrier = CarrierOfListItem.parse(raw.carrier);
    if (carrier !== undefined) read.record.carrier_id = carrier === null ? null : carrier.id;
  }
  return read;
}

export type UpstreamReturn = UpstreamRecordOf<typeof RETURN_FIELDS>;

export const readUpstreamReturn: (raw: unknown) => Read<UpstreamReturn> = readerOf(RETURN_FIELDS, 'return');

const Meta = z.object({
  current_page: z.int().optional().catch(undefined),
  total_pages: z.int().nonnegative(),
  total_count: z.int().nonnegative(),
  per_page: z.int().positive().optional().catch(undefined),
});
export type PageMeta = z.infer<typeof Meta>;

/**
 * A list answer: `{data, meta}` as the spec shows for packages, or a bare array (the returns
 * listings' shape is not shown: an array is every record at once). Null when it is neither.
 */
export interface ListAnswer {
  items: unknown[];
  /** Absent for a bare array (one page holds everything). */
  meta: PageMeta | null;
}

export function readListAnswer(body: unknown): ListAnswer | null {
  if (Array.isArray(body)) return { items: body, meta: null };
  const shaped = z.object({ data: z.array(z.unknown()), meta: Meta }).safeParse(body);
  if (shaped.success) return { items: shaped.data.data, meta: shaped.data.meta };
  return null;
}

/** Each item of a page read on its own: the records, and those that could not be read. */
export function readEach<T>(items: unknown[], read: (raw: unknown) => Read<T>): { records: T[]; unreadable: UnreadableRecord[] } {
  const records: T[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const item of items) {
    const result = read(item);
    if (result.ok) records.push(result.record);
    else unreadable.push(result.unreadable);
  }
  return { records, unreadable };
}
