import { expect, it } from 'vitest';
import { STATION_SCHEMA, STATION_TABLES, tablesOf } from '../../electron/station/store/schema.ts';

// Transactions are bound to STATION_TABLES: a table added to the schema but not to the list would be
// missing from every bound transaction.
it('lists exactly the tables of the newest schema version', () => {
  expect([...STATION_TABLES].sort()).toEqual([...tablesOf(STATION_SCHEMA).keys()].sort());
});
