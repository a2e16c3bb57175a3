import { normaliseCode } from '#shared/barcode.ts';
import { type ApiClient, StationUnreachableError } from '#shared/api/client.ts';
import type { LookupResponse, LookupUnit, Operator } from '#shared/api/station.ts';
import { describeError } from '../api/describe-error.ts';
import { unitsOfItem } from '../inspect/drafts.ts';
import { scanAsSerial } from './serial-scan.ts';
import { pageClient } from '../api/station-api.ts';
import { type RegisterStore, useRegister } from '../registering/register-store.ts';
import { createSerialQueue, type SerialQueue } from '../scan/serial-queue.ts';
import { type SessionStore, useSession } from '../session/session-store.ts';
import { useSupervisorSession } from '../session/supervisor-session.ts';
import { useDispositionRules } from '../state/disposition-rules.ts';
import { notify } from '../state/feedback-store.ts';
import { useNav } from '../state/nav-store.ts';
import { commandBarcode, isCommandCode, type CommandBarcode } from '../workflow/command-barcodes.ts';
import type { LeftPackage } from './in-progress-store.ts';
import { createPackageOpener, type OpenerClient, type PackageOpener } from './open-package.ts';
import { refuseWhenLocked } from './package-lock.ts';
import { lockReasonOf } from './package-store.ts';
import { MAX_HELD_SCANS, useHeldScans } from './held-scans.ts';
import { outbox, usePackage } from './page-package.ts';
import { useScan } from './scan-result-store.ts';

/*
 * What a scan means depends on where the worker is: a badge before sign-in, an item on an open
 * package, a return to attach an unknown parcel to while registering, else a parcel's tracking
 * number; a command barcode does what its key does. Scans go through one serial queue: each is fully handled before the next starts.
 * A key pressed while scans are still being handled joins the same queue (`afterScans`), so it acts
 * where those scans lead: a condition key right after an item scan sets that item's condition however
 * slowly the station answered the parcel scan before it.
 */

/** What waits in the scan queue: a scan, or the action of a key pressed after it. */
type QueuedInput = { scan: string } | { key: () => void };

type CommandRunner = (command: CommandBarcode) => Promise<void> | void;

export interface ScanRouter {
  /** Queues a scan (an empty one is ignored). */
  submitScan(raw: string): void;
  /** The queue the scans go through, one at a time (tests wait for it to be idle). */
  scanQueue: SerialQueue<QueuedInput>;
  /** Runs `action` after the scans queued so far, at once when there are none. */
  afterScans(action: () => void): void;
  /** Opens a package found by a scan or picked from a list, saying what the worker must know about it. */
  openFound(found: LeftPackage): Promise<void>;
  /** Who runs scanned command barcodes (the station keyboard installs command-actions.ts). */
  onCommandBarcode(run: CommandRunner): void;
}

export interface ScanRouterDeps {
  /** The station client codes are looked up and packages opened with. */
  client: Pick<ApiClient, 'lookup' | 'checkBadge'> & OpenerClient;
  /** Whose badges sign in (made with the same client). */
  session: SessionStore;
  /** Where unknown parcels are registered (made with the same client). */
  register: RegisterStore;
}

/** What the router's steps work with. */
interface Router {
  client: ScanRouterDeps['client'];
  sessions: SessionStore;
  registering: RegisterStore;
  openPackage: PackageOpener['openPackage'];
  runCommand: CommandRunner;
}

/** A scan router over `client`; the page's one is below. */
export function createScanRouter({ client, session, register }: ScanRouterDeps): ScanRouter {
  const r: Router = {
    client,
    sessions: session,
    registering: register,
    openPackage: createPackageOpener(client).openPackage,
    runCommand: () => notify('error', 'Command barcodes are not available here.'),
  };
  const queue = createSerialQueue<QueuedInput>(
    (input) => ('scan' in input ? handleScan(r, input.scan) : input.key()),
    (error) => notify('error', describeError(error)),
  );
  return {
    submitScan(raw) {
      if (normaliseCode(raw) === '') return;
      queue.push({ scan: raw });
    },
    scanQueue: queue,
    afterScans(action) {
      if (queue.size === 0) action();
      else queue.push({ key: action });
    },
    openFound: (found) => openFoundPackage(r, found),
    onCommandBarcode(run) {
      r.runCommand = run;
    },
  };
}

async function handleScan(r: Router, raw: string): Promise<void> {
  const code = normaliseCode(raw);
  try {
    const session = r.sessions.getState();
    // A printed command barcode does what its key does, wherever the worker is.
    if (isCommandCode(code)) {
      const command = commandBarcode(code);
      if (!command) return notify('error', `${code} is not a command this station knows.`);
      if (!session.operator) return notify('warning', 'Scan your badge first.');
      return await r.runCommand(command);
    }
    if (!session.operator) return await signInByBadge(r, code);
    // A badge is never a parcel or an item: wherever it is scanned, it switches the worker.
    const badge = session.byBadge(code);
    if (badge) return switchOperator(r, badge);
    const screen = useNav.getState().screen;
    if (screen === 'package') return await scanOnPackage(r, code);
    if (screen === 'register') return await scanWhileRegistering(r, code);
    return await scanParcel(r, code);
  } finally {
    useScan.getState().count();
  }
}

async function signInByBadge(r: Router, code: string): Promise<void> {
  const session = r.sessions.getState();
  let operator = session.byBadge(code);
  if (!operator) {
    await session.loadOperators();
    operator = r.sessions.getState().byBadge(code);
  }
  if (!operator) {
    if (await isSupervisorBadge(r, code)) return askSupervisorPin(r, code);
    return notify('error', `No operator has badge ${code}. Scan your badge or pick your name.`);
  }
  if (!operator.active) return refuseDeactivated(operator);
  r.sessions.getState().signIn(operator);
  notify('success', `Signed in: ${operator.name}`);
}

/**
 * A code nothing else knows may be the badge of a worker this page has not seen (added since the list
 * was loaded, or a page that kept its worker across a reload and never loaded it): asked of the station
 * before the code becomes an item or a parcel. Offline, the list as last loaded.
 */
async function badgeOnStation(r: Router, code: string): Promise<Operator | 'supervisor' | null> {
  try {
    await r.sessions.getState().loadOperators();
  } catch {
    return null;
  }
  const operator = r.sessions.getState().byBadge(code);
  if (operator) return operator;
  return (await isSupervisorBadge(r, code)) ? 'supervisor' : null;
}

/**
 * Whether the station says this code is a supervisor's badge (this terminal is not given those: it
 * asks about the one code scanned). Unanswered (offline, or asked too often) it is not.
 */
async function isSupervisorBadge(r: Router, code: string): Promise<boolean> {
  try {
    return (await r.client.checkBadge({ badge_code: code })).pin_needed;
  } catch {
    return false;
  }
}

/** A supervisor's badge scanned: their PIN, then they are signed in to work as well (the dock's worker). */
function askSupervisorPin(r: Router, code: string): void {
  useSupervisorSession
    .getState()
    .ask('A supervisor’s badge: type the PIN to sign in.', code, (session) => switchOperator(r, { ...session.operator, badge_code: null }));
}

/** A badge the station knew of (a worker this page had not seen, or a supervisor's) switches who works. */
function badgeFound(r: Router, badge: Operator | 'supervisor', code: string): void {
  if (badge === 'supervisor') askSupervisorPin(r, code);
  else switchOperator(r, badge);
}

/** A deactivated worker's badge signs nobody in and records nothing: it says so, in words. */
function refuseDeactivated(operator: Operator): void {
  notify('error', `${operator.name}'s badge is deactivated: nobody was signed in. Ask a supervisor (Workers) to activate it.`);
}

function switchOperator(r: Router, operator: Operator): void {
  if (!operator.active) return refuseDeactivated(operator);
  const before = r.sessions.getState().operator;
  if (before?.id === operator.id) return notify('success', `${operator.name} is already signed in.`);
  r.sessions.getState().signIn(operator);
  notify('success', `Signed in: ${operator.name}${before ? ` (instead of ${before.name})` : ''}`);
}

/**
 * The station's answer for a code, or null when the station cannot be reached (a handheld's Wi-Fi
 * dropped): then nothing is taken from the scan, and `unreachable` says so and what to do.
 */
async function lookupOrSay(r: Router, code: string, unreachable: string): Promise<LookupResponse | null> {
  try {
    return await r.client.lookup(code);
  } catch (error) {
    if (!(error instanceof StationUnreachableError)) throw error;
    notify('error', unreachable);
    return null;
  }
}

async function scanParcel(r: Router, code: string): Promise<void> {
  let answer: LookupResponse;
  try {
    answer = await r.client.lookup(code);
  } catch (error) {
    if (!(error instanceof StationUnreachableError)) throw error;
    return holdParcel(code);
  }
  // A parcel held while the station was away, scanned again: it opens now, and is held no more.
  useHeldScans.getState().take(code);
  const scan = useScan.getState();
  // A unit label: its package, with the unit selected.
  if (answer.unit && answer.packages[0]) {
    scan.clear();
    await openFoundPackage(r, answer.packages[0]);
    return selectUnit(answer.unit);
  }
  if (answer.packages.length === 1 && answer.packages[0]) {
    scan.clear();
    return openFoundPackage(r, answer.packages[0]);
  }
  if (answer.packages.length > 1) {
    scan.show(code, answer.packages, []);
    return notify('warning', `${answer.packages.length} packages have this tracking number — pick one (keys 1–9).`);
  }
  if (answer.returns.length > 0) {
    scan.show(code, [], answer.returns);
    return notify(
      'warning',
      `${code} is not a tracking number but matches ${answer.returns.length === 1 ? 'a return' : `${answer.returns.length} returns`}. Scan the parcel label.`,
    );
  }
  const badge = await badgeOnStation(r, code);
  if (badge) return badgeFound(r, badge, code);
  scan.clear();
  r.registering.getState().start(answer.candidates[0] ?? code);
  useNav.getState().go('register');
  notify('warning', `Unknown tracking number ${code}. Find its return to register the parcel.`);
}

/** Only the station knows which package a tracking number is: offline, the scan is held until it answers. */
function holdParcel(code: string): void {
  const held = useHeldScans.getState().hold(code);
  if (held === 'full')
    return notify('error', `${code} not held: ${MAX_HELD_SCANS} scans already wait for the station. Scan it again when the station answers.`);
  notify('pending', `${code} ${held === 'already' ? 'is already held' : 'held'}: it opens when the station answers.`);
}

async function openFoundPackage(r: Router, found: LeftPackage): Promise<void> {
  // Its receive is still on its way: opening it now would show a package about to change under the worker.
  await outbox.ready;
  if (outbox.isReceiving(found.account_id, found.id))
    return notify('pending', `${found.tracking_number} is being received (waiting for the station). It opens again once the station has it.`);
  // The rules as the station has them now (at most every half minute; offline: as last seen).
  void useDispositionRules.getState().refresh();
  await r.openPackage(found.account_id, found.id, found.status, found.return_id);
  const pkg = usePackage.getState().current?.pkg;
  if (!pkg) return;
  // Received or cancelled: the package says so itself (its state on screen); the notice only names it.
  if (pkg.status === 'received') notify('warning', `Opened ${pkg.tracking_number} — received.`);
  else if (pkg.status === 'cancelled') notify('error', `Opened ${pkg.tracking_number} — cancelled.`);
  else if (pkg.status === 'exception') notify('warning', `${pkg.tracking_number} is an exception: inspect every item and set its condition before receiving.`);
  else notify('success', `Opened ${pkg.tracking_number}`);
}

async function scanOnPackage(r: Router, code: string): Promise<void> {
  const store = usePackage.getState();
  const ret = store.current?.ret ?? null;
  // A bin's barcode: the put of the selected unit (its bin), or a wrong bin that changes nothing.
  if (lockReasonOf(usePackage.getState()) === null) {
    const put = store.scanBin(code, r.sessions.getState().operator?.id ?? null);
    if (put.kind === 'put') return notify('success', `Put in ${put.bin ?? code}.`);
    if (put.kind === 'already') return notify('warning', `Already put in ${put.bin ?? code}.`);
    if (put.kind === 'wrong')
      return notify(
        'error',
        put.bin
          ? `Wrong bin: ${code} is not ${put.bin}. Nothing changed — put the unit in ${put.bin}.`
          : `${code} is a bin: select a unit with a disposition first. Nothing changed.`,
      );
  }
  // A return line's SKU, or an item already on this package: counted without asking the station.
  const known =
    ret?.return_line_items.some((l) => normaliseCode(l.merchant_sku) === code) ||
    store.drafts.some((d) => d.barcode !== null && normaliseCode(d.barcode) === code);
  // The selected unit's serial, asked for after the item; or a serial of a unit of this parcel.
  if (!known && lockReasonOf(usePackage.getState()) === null && scanAsSerial(code)) return;
  if (!known) {
    // Not on the return: the station says whether it is another parcel, a unit label or a badge. Unanswered, it is not guessed at.
    const answer = await lookupOrSay(
      r,
      code,
      `${code} not recorded: it is not on this return, and the station cannot be reached to look it up. Scan it again when the station answers.`,
    );
    if (!answer) return;
    const other = answer.packages.find((p) => p.id !== store.current?.pkg.id);
    if (other) {
      await switchPackage(r, other);
      if (answer.unit) selectUnit(answer.unit);
      return;
    }
    // A unit label of this package: that unit is selected, nothing is counted.
    if (answer.unit) return selectUnit(answer.unit);
    const badge = await badgeOnStation(r, code);
    if (badge) return badgeFound(r, badge, code);
  }
  if (refuseWhenLocked()) return;
  const outcome = store.scanItem(code);
  const drafts = usePackage.getState().drafts;
  const draft = drafts.find((d) => outcome.kind !== 'none' && d.key === outcome.key);
  // Each scan is a unit of its own: say how many of the item the package now holds.
  const units = draft ? unitsOfItem(drafts, draft) : 0;
  if (outcome.kind === 'line') {
    const name = ret?.return_line_items.find((l) => l.id === draft?.return_line_item_id)?.name ?? code;
    if (outcome.over) notify('warning', `Over-receipt: ${name} — ${units} scanned, more than expected.`);
    else notify('success', `${name}: ${units}${units > 1 ? ' — a unit of its own: set its condition' : ''}`);
  } else if (outcome.kind === 'unexpected') {
    notify('warning', `Unexpected item ${code}${outcome.isNew ? '' : `: ${units}`} — not on this return.`);
  }
}

/** Another parcel scanned inside an open package: open it, and say the first one is still in progress. */
async function switchPackage(r: Router, found: LeftPackage): Promise<void> {
  const left = usePackage.getState().current?.pkg;
  await openFoundPackage(r, found);
  const opened = usePackage.getState().current?.pkg;
  if (!left || !opened || opened.id === left.id || left.status === 'received' || left.status === 'cancelled') return;
  notify('warning', `Switched to ${opened.tracking_number}; ${left.tracking_number} is still in progress (on the scan screen).`);
}

async function scanWhileRegistering(r: Router, code: string): Promise<void> {
  const answer = await r.client.lookup(code);
  const pkg = answer.packages[0];
  if (answer.packages.length === 1 && pkg) return openFoundPackage(r, pkg);
  const count = await r.registering.getState().search(code);
  if (count === 0) notify('warning', `No return matches ${code}. Try the customer's email, the return id or a SKU, or create a manual return.`);
  else notify('success', `${count} return${count === 1 ? '' : 's'} found — press its number to attach the parcel.`);
}

/** This page's scan router. */
export const { submitScan, scanQueue, afterScans, openFound, onCommandBarcode } = createScanRouter({
  client: pageClient,
  session: useSession,
  register: useRegister,
});

/** Selects the unit a scanned unit label names on the open package, and says which it is. */
function selectUnit(unit: LookupUnit): void {
  const store = usePackage.getState();
  const key = `li-${unit.line_item_id}`;
  const draft = store.drafts.find((d) => d.key === key);
  if (store.current?.pkg.id !== unit.return_package_id || !draft) return notify('warning', `Unit ${unit.unit_id} is not on the open package.`);
  store.select(key);
  const name = store.current.ret?.return_line_items.find((l) => l.id === draft.return_line_item_id)?.name ?? draft.name ?? 'item';
  notify('success', `Unit ${unit.unit_id}: ${name}${draft.bin ? ` — bin ${draft.bin}` : ''}`);
}
