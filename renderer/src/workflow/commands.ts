import type { Disposition } from '#shared/dispositions.ts';
import { describeError } from '../api/describe-error.ts';
import { playDispositionTone } from '../feedback/sound.ts';
import { type Draft, type KeepReason, unitsOfItem } from '../inspect/drafts.ts';
import { useDispositionRules } from '../state/disposition-rules.ts';
import { conditionForKey, conditionLabel } from '../inspect/conditions.ts';
import { capturePhoto, useCamera } from '../media/camera.ts';
import { useInProgress } from '../receiving/in-progress-store.ts';
import { leaveInProgress } from '../receiving/open-package.ts';
import { refuseWhenLocked } from '../receiving/package-lock.ts';
import { receiveGaps, receiveQuestion } from '../receiving/receive-check.ts';
import { skuOfDraft, unitsMissingSerial } from '../inspect/serials.ts';
import { outbox, usePackage } from '../receiving/page-package.ts';
import { scanQueue } from '../receiving/scan-router.ts';
import { useSession } from '../session/session-store.ts';
import { notify } from '../state/feedback-store.ts';
import { useNav } from '../state/nav-store.ts';
import { useStationLink } from '../state/station-link.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { offerPdfInBrowser, openPdfInBrowser } from '../printing/pdf-view.ts';
import { labelsAfterReceipt, type ReceivedPackage } from '../printing/after-receipt.ts';
import { printUnitLabel } from '../printing/printing.ts';
import { pageClient } from '../api/station-api.ts';

/*
 * Every action of the receiving screen as a plain function: buttons and shortcut keys call the
 * same ones, so each action is reachable both ways and behaves the same.
 */

/** `inScanQueue`: called from the scan queue (a Receive command barcode), whose earlier scans have landed. */
export async function receive(options: { inScanQueue?: boolean } = {}): Promise<void> {
  const operator = useSession.getState().operator;
  const current = usePackage.getState().current;
  if (!current || usePackage.getState().receiving) return;
  if (!operator) return notify('error', 'Sign in before receiving.');
  if (current.pkg.status === 'received' && usePackage.getState().correctingBy === null)
    return notify('error', `${current.pkg.tracking_number} is already received. Press F7 to correct the receipt.`);
  if (refuseWhenLocked()) return;
  // Scans already queued belong to this package: let them land first, then look at what it holds.
  if (!options.inScanQueue) await scanQueue.idle();
  const moreParcels =
    receiveGaps(current.ret, usePackage.getState().drafts).short.length > 0 &&
    (await moreParcelsToCome(current.accountId, current.pkg.id, current.pkg.return_id));
  const store = usePackage.getState();
  // The package as it is now (the station may have answered meanwhile); another one opened: nothing to do.
  const open = store.current;
  if (!open || open.accountId !== current.accountId || open.pkg.id !== current.pkg.id || store.receiving) return;
  // A unit whose SKU needs its serial is not complete without it: nothing is received, nothing lost.
  const noSerial = unitsMissingSerial(store.drafts, open.ret, useStationSettings.getState().serialRules);
  if (noSerial[0]) {
    store.select(noSerial[0].key);
    const names = noSerial.slice(0, 3).map((d) => skuOfDraft(d, open.ret) ?? d.name ?? 'a unit');
    return notify(
      'error',
      `Not received: ${noSerial.length === 1 ? 'a unit needs its serial' : `${noSerial.length} units need their serial`} (${names.join(', ')}${noSerial.length > 3 ? ', …' : ''}). Scan the selected unit's serial, then F2.`,
    );
  }
  const question = receiveQuestion(open.ret, store.drafts, {
    packageRef: `${open.accountId}:${open.pkg.id}`,
    trackingNumber: open.pkg.tracking_number,
    exception: open.pkg.status === 'exception',
    correcting: store.correctingBy !== null,
    allowUnsetConditions: useStationSettings.getState().unsetConditions === 'allow',
    moreParcels,
  });
  if (question?.kind === 'refuse') return notify('error', question.message);
  if (question?.kind === 'ask' && askedAbout !== question.key) {
    askedAbout = question.key;
    return notify('warning', question.message);
  }
  askedAbout = null;
  try {
    const correcting = store.correctingBy !== null;
    const tracking = current.pkg.tracking_number;
    const result = await usePackage.getState().receive(operator.id);
    const units = `${result.units} unit${result.units === 1 ? '' : 's'}`;
    // Received now, or kept and sent when the station answers: either way the next parcel can be scanned.
    if (result.kind === 'received') {
      notify('success', `${correcting ? 'Corrected the receipt of' : 'Received'} ${tracking} — ${units}. Scan the next parcel.`);
      if (!correcting) void labelTrouble({ accountId: current.accountId, packageId: current.pkg.id, trackingNumber: tracking });
    } else
      notify('pending', `${correcting ? 'Correcting the receipt of' : 'Receiving'} ${tracking} — ${units}… (waiting for the station). Scan the next parcel.`);
    useInProgress.getState().forget(current.accountId, current.pkg.id);
    usePackage.getState().close();
    useNav.getState().go('scan');
    void useStationLink
      .getState()
      .refreshStatus()
      .catch(() => undefined);
  } catch (error) {
    notify('error', describeError(error));
  }
}

/** The labels of a package just received: offered as a PDF (the browser), or a warning when they did not print. */
async function labelTrouble(received: ReceivedPackage): Promise<void> {
  const warning = await labelsAfterReceipt(pageClient, received, useStationSettings.getState().labels.printer, offerPdfInBrowser).catch(() => null);
  if (warning === null) return;
  notify('warning', warning);
  void useStationLink
    .getState()
    .refreshStatus()
    .catch(() => undefined);
}

/** The question last asked (receiveQuestion's key): the same question confirmed by receiving again. */
let askedAbout: string | null = null;

/** Whether another parcel of the return is still to come (not received or cancelled): what this one lacks may be in it. */
async function moreParcelsToCome(accountId: number, packageId: number, returnId: number): Promise<boolean> {
  try {
    const { data } = await pageClient.listPackages(accountId, { return_id: returnId, per_page: 100 });
    return data.some((p) => p.id !== packageId && p.status !== 'received' && p.status !== 'cancelled');
  } catch {
    // The station does not answer: ask, rather than receive short without a word.
    return false;
  }
}

/** "Correct receipt" (F7): opens a received package for changes, recorded on each changed item. */
export function correctReceipt(): void {
  const operator = useSession.getState().operator;
  const pkg = usePackage.getState().current?.pkg;
  if (!pkg || !operator) return;
  if (pkg.status !== 'received') return notify('warning', 'Only a received package needs a correction.');
  usePackage.getState().startCorrection({ id: operator.id, name: operator.name });
  notify('warning', `Correcting the receipt of ${pkg.tracking_number}: every change is recorded as made by ${operator.name}. F2 when done.`);
}

export function undo(): void {
  const what = usePackage.getState().undo();
  if (what) notify('warning', `Undone: ${what}`);
  else notify('warning', 'Nothing to undo.');
}

const selectedDraft = (): Draft | undefined => usePackage.getState().drafts.find((d) => d.key === usePackage.getState().selectedKey);

/** "… → Restock, bin RESTOCK": where the selected unit goes now, for the feedback line. */
function whereTo(draft: Draft | undefined): string {
  if (!draft?.disposition) return '';
  const label = useDispositionRules.getState().styles[draft.disposition].label;
  return ` → ${label}${draft.bin ? `, bin ${draft.bin}` : ''}`;
}

/** The disposition's own tone when the unit has one, else the plain one. */
const dispositionSound = (draft: Draft | undefined) => (draft?.disposition ? () => playDispositionTone(draft.disposition as Disposition) : undefined);

export function setConditionKey(key: string): void {
  const condition = conditionForKey(key);
  if (!condition || refuseWhenLocked()) return;
  if (!usePackage.getState().setCondition(condition, useSession.getState().operator?.id ?? null))
    return notify('warning', 'Scan an item first, then set its condition.');
  const draft = selectedDraft();
  notify('success', `Condition: ${conditionLabel(condition)}${whereTo(draft)}`, dispositionSound(draft));
}

export function toggleDefective(): void {
  if (refuseWhenLocked()) return;
  if (!usePackage.getState().toggleDefective()) return notify('warning', 'Scan an item first.');
  const selected = selectedDraft();
  notify(
    selected?.defective ? 'defective' : 'success',
    `${selected?.defective ? 'Marked defective' : 'Not defective'}${whereTo(selected)}`,
    selected?.defective ? undefined : dispositionSound(selected),
  );
}

/** F10, a number, a reason: the selected unit goes elsewhere than the rules say, recorded with who and why. */
export function overrideDisposition(disposition: Disposition, reason: string): boolean {
  const operator = useSession.getState().operator;
  if (reason.trim() === '') {
    notify('warning', 'Say why the disposition is overridden, then Enter.');
    return false;
  }
  if (refuseWhenLocked()) return true;
  if (!usePackage.getState().overrideDisposition(disposition, operator?.id ?? null, reason.trim())) {
    notify('warning', 'Scan an item first.');
    return true;
  }
  const draft = selectedDraft();
  notify('success', `Overridden${whereTo(draft)} (${operator?.name ?? 'no one signed in'}: ${reason.trim()})`, dispositionSound(draft));
  return true;
}

/** F5: the selected unit's label, printed or printed again (for the browser: its PDF opened). */
/** How long F5 waits for the station to save a unit scanned just now (its unit id is the label's barcode). */
const UNIT_ID_WAIT_MS = 3000;

export async function printSelectedLabel(): Promise<void> {
  const current = usePackage.getState().current;
  let draft = selectedDraft();
  if (!current || !draft) return notify('warning', 'Scan an item first, then print its label (F5).');
  if (draft.unit_id === null) {
    // A unit scanned a moment ago: its unit id comes with the station's answer to the scan.
    const key = draft.key;
    await Promise.race([outbox.idle(), new Promise((resolve) => setTimeout(resolve, UNIT_ID_WAIT_MS))]);
    draft = usePackage.getState().drafts.find((d) => d.key === key);
    if (!draft) return;
    if (draft.unit_id === null)
      return notify('warning', 'This item has no unit id yet: the station has not saved it. Press F5 again once the station is back.');
  }
  const operator = useSession.getState().operator;
  const target = {
    accountId: current.accountId,
    packageId: current.pkg.id,
    draft,
    lineItemId: outbox.lineItemIdOf(current.accountId, current.pkg.id, draft.key),
    operatorId: operator?.id ?? null,
  };
  const outcome = await printUnitLabel(pageClient, target, useStationSettings.getState().labels.printer, openPdfInBrowser);
  // A printed label names this unit: − keeps it from now on.
  if (outcome.ok) usePackage.getState().markLabelled(draft.key);
  notify(outcome.ok ? 'success' : 'error', outcome.message);
}

/** F6: one unit of an item of several (an integrator's line) gets an item and a condition of its own. */
export function splitUnit(): void {
  if (refuseWhenLocked()) return;
  if (!usePackage.getState().splitUnit())
    return notify('warning', 'Every scanned unit is already its own item: select an item of several units to split one off.');
  notify('success', 'One unit split off: set its condition.');
}

const KEPT: Record<KeepReason, string> = {
  put: 'was put in its bin',
  labelled: 'has its label (printed or waiting to print)',
};

/** + / −: another unit of the selected item (condition unset), or the selected unit taken off, said out loud like every other change. */
export function changeQuantity(delta: 1 | -1): void {
  if (refuseWhenLocked()) return;
  const store = usePackage.getState();
  if (store.selectedKey === null) return notify('warning', 'Scan an item first.');
  if (delta > 0) {
    if (!store.addUnit()) return;
    const added = selectedDraft();
    return notify('success', `Another unit${added ? ` (${unitsOfItem(usePackage.getState().drafts, added)} now)` : ''}: set its condition.`);
  }
  const before = selectedDraft();
  const outcome = store.removeUnit();
  if (outcome.kind === 'kept') {
    return notify('error', `Not taken off: ${before?.unit_id ?? 'this unit'} ${KEPT[outcome.reason]}. Nothing changed.`);
  }
  if (outcome.kind === 'fewer') return notify('success', `One unit less: ${selectedDraft()?.quantity ?? '?'} left on this item.`);
  if (outcome.kind === 'removed') notify('success', 'Unit taken off (F8 undoes).');
}

export async function takePhoto(): Promise<void> {
  if (!usePackage.getState().current || refuseWhenLocked()) return;
  try {
    const blob = await capturePhoto();
    usePackage.getState().addPhoto(blob, 'image/jpeg');
    notify('success', 'Photo taken — uploading in the background.');
  } catch (error) {
    notify('error', describeError(error));
  }
}

export function addFiles(files: Iterable<File>): void {
  if (refuseWhenLocked()) return;
  let count = 0;
  for (const file of files) {
    if (!file.type.startsWith('image/') && !file.type.startsWith('video/') && file.type !== 'application/pdf') continue;
    usePackage.getState().addPhoto(file, file.type);
    count++;
  }
  if (count > 0) notify('success', `${count} file${count === 1 ? '' : 's'} added — uploading in the background.`);
  else notify('warning', 'Only photos, videos and PDFs can be attached.');
}

export async function toggleCameraScan(): Promise<void> {
  const camera = useCamera.getState();
  try {
    await camera.setMode(camera.mode === 'scan' ? (usePackage.getState().current ? 'photo' : 'off') : 'scan');
  } catch (error) {
    notify('error', describeError(error));
  }
}

export function back(): void {
  const screen = useNav.getState().screen;
  // The review list is the dock day's: back there.
  if (screen === 'reviews') return useNav.getState().go('supervisor');
  if (screen === 'package') {
    const left = usePackage.getState().current;
    usePackage.getState().close();
    if (left) leaveInProgress(left);
    const pkg = left?.pkg;
    if (pkg && pkg.status !== 'received' && pkg.status !== 'cancelled')
      notify('warning', `Left ${pkg.tracking_number} in progress (not received) — listed on the scan screen.`);
  }
  useNav.getState().go('scan');
}
