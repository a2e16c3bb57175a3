import { errorBody } from '#shared/api/errors.ts';
import { ContractError } from '../errors.ts';
import type { BoundTables } from '../store/index.ts';

/** 422 naming the one field whose value points at nothing (a body that refers to a missing record). */
export function invalidReference(path: string, message: string): ContractError {
  return new ContractError(422, errorBody('VALIDATION_FAILED', `${path}: ${message}`, { fields: [{ path, message }] }));
}

/** Carriers, locations and operators referenced by a body must exist on the station. */
export async function checkReferences(
  t: BoundTables,
  refs: { carrier_id?: number | null; location_id?: number | null; processor_id?: number | null },
): Promise<void> {
  if (refs.carrier_id != null && !(await t.carriers.get(refs.carrier_id))) {
    throw invalidReference('carrier_id', `No carrier ${refs.carrier_id} on this station.`);
  }
  if (refs.location_id != null && !(await t.locations.get(refs.location_id))) {
    throw invalidReference('location_id', `No location ${refs.location_id} on this station.`);
  }
  if (refs.processor_id != null && !(await t.operators.get(refs.processor_id))) {
    throw invalidReference('processor_id', `No operator ${refs.processor_id} on this station.`);
  }
}

/** An operator named by a body's field (`disposition_by`, `condition_by`, `put_by`) must exist: 422 on the field. */
export async function checkOperator(t: BoundTables, field: string, id: number | null | undefined): Promise<void> {
  if (id != null && !(await t.operators.get(id))) throw invalidReference(field, `No operator ${id} on this station.`);
}
