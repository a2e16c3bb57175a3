import { serialProblem } from '#shared/serials.ts';
import { cleanSerial, serialAskedFor, unitWithSerial } from '../inspect/serials.ts';
import type { Draft } from '../inspect/drafts.ts';
import { notify } from '../state/feedback-store.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { usePackage } from './page-package.ts';

/*
 * A scan on an open package that is a serial (docs/decisions/serials.md): while the selected unit
 * waits for its serial, the next scan that is not an item, a bin, a badge or a command is that
 * serial — checked at once (an IMEI's 15 digits and check digit, a text's length), refused in words
 * with nothing recorded. A serial a unit of this parcel already has selects that unit; scanned again
 * on its own unit it changes nothing.
 */

function nameOf(draft: Draft): string {
  const ret = usePackage.getState().current?.ret ?? null;
  return ret?.return_line_items.find((l) => l.id === draft.return_line_item_id)?.name ?? draft.name ?? 'the unit';
}

/** Handles `code` as a serial when it is one here; false: it is something else (an item, a parcel). */
export function scanAsSerial(code: string): boolean {
  const store = usePackage.getState();
  const ret = store.current?.ret ?? null;
  const selected = store.drafts.find((d) => d.key === store.selectedKey) ?? null;
  const rule = serialAskedFor(selected, ret, useStationSettings.getState().serialRules);
  const holder = unitWithSerial(store.drafts, code);
  if (holder && holder.key === selected?.key) {
    notify('success', `Serial ${cleanSerial(code)} is ${nameOf(holder)}'s already: nothing changed.`);
    return true;
  }
  if (holder && !rule) {
    store.select(holder.key);
    notify('success', `Serial ${cleanSerial(code)}: ${nameOf(holder)}${holder.unit_id ? ` (${holder.unit_id})` : ''}.`);
    return true;
  }
  if (!rule || !selected) return false;
  const problem = serialProblem(rule, code);
  if (problem !== null) {
    notify('error', `${problem} Nothing recorded: scan the serial of ${nameOf(selected)} again.`);
    return true;
  }
  const serial = cleanSerial(code);
  store.setSerial(selected.key, serial);
  // Another unit of this parcel has it: said at once (the station flags it and holds the parcel too).
  if (holder) notify('error', `Serial ${serial} is already on another unit of this parcel (${nameOf(holder)}).`);
  else notify('success', `Serial ${serial} recorded for ${nameOf(selected)}.`);
  return true;
}
