import { describe, expect, it } from 'vitest';
import { PACKAGE_UPDATE_FIELDS } from '#shared/api/return-packages.ts';
import { PACKAGE_LINE_ITEM_FIELDS } from '#shared/fields/package-line-item.ts';
import { RETURN_FIELDS, RETURN_LINE_ITEM_FIELDS } from '#shared/fields/return.ts';
import { RETURN_PACKAGE_FIELDS } from '#shared/fields/return-package.ts';
import { type FieldTable, goesUpOnChange, goesUpOnCreate, knownValues, namesWhere, valueRows } from '#shared/fields/table.ts';
import { EMPTY_AFTER_CREATE, SENT_ON_CREATE, STATION_OWNED, SYNCED_FIELDS, UPSTREAM_OWNED } from '../../electron/station/sync/links/package-fields.ts';

/*
 * The records' field tables (docs/decisions/field-tables.md) hold together, and sync's package lists
 * read from them are the ones the station has always sent.
 */

const TABLES: Record<string, FieldTable> = {
  'return package': RETURN_PACKAGE_FIELDS,
  return: RETURN_FIELDS,
  'return line': RETURN_LINE_ITEM_FIELDS,
  'package line item': PACKAGE_LINE_ITEM_FIELDS,
};

describe.each(Object.entries(TABLES))('the %s table', (_name, table) => {
  it('sends on change only the dock’s fields: an update never carries a value the upstream owns', () => {
    for (const [field, row] of valueRows(table)) if (goesUpOnChange(row)) expect(row.owner, field).toBe('dock');
  });

  it('reads a closed list only for a field whose type is one, and needs only what it reads', () => {
    for (const [field, row] of valueRows(table)) {
      if (row.needed) expect(row.read, field).toBeDefined();
      if (row.read === 'each') expect(row.of, field).toBeDefined();
      if (row.read === 'known') expect(knownValues(row).length, field).toBeGreaterThan(1);
    }
  });

  it('gives every value a type that accepts what its create and update bodies accept', () => {
    // A body's value is stored as given: its schema's output must be a value of the field's type.
    for (const [field, row] of valueRows(table)) {
      for (const body of [row.create, row.update]) {
        if (body === undefined || body.safeParse(undefined).success === false) continue;
        const value = body.parse(undefined);
        if (value !== undefined) expect(row.type.safeParse(value).success, `${field}: default ${JSON.stringify(value)}`).toBe(true);
      }
    }
  });
});

describe('the return package’s sync lists, from its table', () => {
  it('sends on create what the upstream’s create takes, and the dock’s fields when they change', () => {
    expect(SENT_ON_CREATE).toEqual([
      'tracking_number',
      'status',
      'estimated_arrival',
      'shipping_method',
      'weight',
      'weight_unit',
      'length',
      'width',
      'height',
      'dimension_unit',
      'shipping_label_cost',
      'shipping_label_cost_currency',
      'carrier_id',
      'location_id',
    ]);
    expect([...STATION_OWNED].sort()).toEqual(['actual_arrival', 'notes', 'status']);
    expect(namesWhere(RETURN_PACKAGE_FIELDS, goesUpOnChange).sort()).toEqual(['actual_arrival', 'notes', 'status']);
    // The dock's fields a create does not carry start empty upstream: a value set here goes in the update after it.
    expect(EMPTY_AFTER_CREATE).toEqual({ actual_arrival: null, notes: null });
  });

  it('keeps the station’s own fields out of sync although an update may change them', () => {
    const local = ['processed_at', 'processor_id', 'processor_name'];
    for (const field of local) {
      expect(PACKAGE_UPDATE_FIELDS).toContain(field);
      expect(SYNCED_FIELDS).not.toContain(field);
    }
    expect([...SYNCED_FIELDS].sort()).toEqual([...STATION_OWNED, ...UPSTREAM_OWNED].sort());
    const notOnCreate = valueRows(RETURN_PACKAGE_FIELDS).filter(([field, row]) => SYNCED_FIELDS.includes(field as never) && !goesUpOnCreate(row));
    expect(notOnCreate.map(([field]) => field)).toEqual(['actual_arrival', 'notes']);
  });
});
