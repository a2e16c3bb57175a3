import { describeError } from '../api/describe-error.ts';
import { evidencePackOfOpenPackage } from '../evidence/page-evidence.ts';
import { useInProgress } from '../receiving/in-progress-store.ts';
import { useOverride } from '../receiving/override-store.ts';
import { usePackage } from '../receiving/page-package.ts';
import { useScan } from '../receiving/scan-result-store.ts';
import { afterScans, onCommandBarcode, openFound, scanQueue, submitScan } from '../receiving/scan-router.ts';
import { useRegister } from '../registering/register-store.ts';
import { conditionForKey } from '../inspect/conditions.ts';
import { lockOf } from '../receiving/package-store.ts';
import { refuseWhenLocked } from '../receiving/package-lock.ts';
import { useSiteManaged } from '../settings/site-managed.ts';
import { takeScaleKeys, takeScalePrefixKey } from '../scale/wedge-keys.ts';
import { useHeldKey } from '../scan/held-key.ts';
import { installKeyCapture } from '../scan/key-capture.ts';
import { leaveSettings } from '../settings/leave-settings.ts';
import { showSettingsSection } from '../settings/settings-section.ts';
import { focusScan, scanField } from '../scan/scan-field.ts';
import { useSession } from '../session/session-store.ts';
import { useSupervisorSession } from '../session/supervisor-session.ts';
import { notify } from '../state/feedback-store.ts';
import { useNav } from '../state/nav-store.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { runCommandBarcode } from './command-actions.ts';
import { isCommandCode } from './command-barcodes.ts';
import { type KeyAction, type KeyContext, keyContextOf, keyNameOf, keyRowFor, keptFromBrowser, type NavTarget, REFUSED_AS_LOCKED } from './key-table.ts';
import {
  back,
  changeQuantity,
  correctReceipt,
  printSelectedLabel,
  receive,
  setConditionKey,
  splitUnit,
  takePhoto,
  toggleCameraScan,
  toggleDefective,
  undo,
} from './commands.ts';

/*
 * The station's keys, acted on through their rows in the one keyboard table (key-table.ts), whose
 * legend is on screen (ShortcutHints). A lone 1–9, + or − is shown, not done, until Enter, a command
 * key or the next scan (scan/key-capture.ts). A key pressed while scans are still being handled acts
 * after them (the scan router's queue), as if the station had answered at once: keys and scans act
 * in the order the worker made them.
 */

/** The key context now (the legend's too). */
export function currentKeyContext(): KeyContext {
  const session = useSession.getState();
  return keyContextOf({
    signedIn: session.operator !== null,
    nobody: session.operators.length === 0,
    screen: useNav.getState().screen,
    locked: lockOf(usePackage.getState()),
    managed: useSiteManaged.getState().managed !== null,
  });
}

function pickIndex(char: string): number | null {
  const n = Number.parseInt(char, 10);
  return Number.isInteger(n) && n >= 1 && n <= 9 ? n - 1 : null;
}

/** What a typed character's action does now, or null when it is just text (nothing to pick, no unit selected). */
function charAction(run: KeyAction, char: string): (() => void) | null {
  const index = pickIndex(char);
  const pkg = usePackage.getState();
  const picking = useOverride.getState().state.step === 'pick';
  switch (run) {
    case 'sign-in': {
      const session = useSession.getState();
      const operator = index === null ? undefined : (session.byKey(index + 1) ?? undefined);
      return operator
        ? () => {
            session.signIn(operator);
            notify('success', `Signed in: ${operator.name}`);
          }
        : null;
    }
    case 'condition':
      if (pkg.selectedKey === null) return null;
      // F10 then a number: the disposition to override with.
      return picking ? () => useOverride.getState().pick(Number(char) - 1) : () => setConditionKey(char);
    case 'more':
    case 'fewer':
      return pkg.selectedKey === null || picking ? null : () => changeQuantity(run === 'more' ? 1 : -1);
    case 'pick-return': {
      const candidate = index === null ? undefined : useRegister.getState().candidates[index];
      return candidate
        ? () =>
            void useRegister
              .getState()
              .choose(candidate)
              .catch((e: unknown) => notify('error', describeError(e)))
        : null;
    }
    case 'pick-package': {
      // The pick list of an ambiguous scan when there is one, else the packages left in progress.
      const choices = useScan.getState().packages.length > 0 ? useScan.getState().packages : useInProgress.getState().packages;
      const found = index === null ? undefined : choices[index];
      return found
        ? () => {
            useScan.getState().clear();
            void openFound(found).catch((e: unknown) => notify('error', describeError(e)));
          }
        : null;
    }
    default:
      return null;
  }
}

/** What a lone character does on the current screen, or null when it is just text. */
function shortcutFor(char: string): (() => void) | null {
  const context = currentKeyContext();
  const found = keyRowFor(context, char, false);
  if (found?.run) return charAction(found.run, char);
  // A locked package's unit keys say why they do nothing (error tone), like its F-keys.
  const open = REFUSED_AS_LOCKED[context];
  if (open && keyRowFor(open, char, false) && usePackage.getState().selectedKey !== null) return () => void refuseWhenLocked();
  return null;
}

/** The characters that are a shortcut on some screen: while scans are being handled, any may become one. */
const MAY_BE_SHORTCUT = /^[1-9+-]$/;

/** A held shortcut character, run where the scans before it led; one that is no shortcut there was typed text. */
function runShortcut(char: string): void {
  const run = shortcutFor(char);
  if (run) return run();
  const field = scanField();
  if (field) field.value = char + field.value;
}

/**
 * A held key shows what it would do the moment it goes down, and does nothing until Enter, a command
 * key or the next scan confirms it: a condition key the unit's disposition and bin; a number on a
 * list the row it would pick (useHeldKey). Not the condition while scans are in flight: the key will
 * act on the unit they select.
 */
function previewHeldKey(char: string | null): void {
  useHeldKey.getState().set(char);
  const onPackage = useNav.getState().screen === 'package' && useOverride.getState().state.step !== 'pick';
  const condition = char !== null && onPackage && scanQueue.size === 0 && useSession.getState().operator ? conditionForKey(char) : null;
  usePackage.getState().previewCondition(condition);
}

/** Keys that act on the screen (not on a text field's caret): these wait for the scans before them. */
function actsOnScreen(event: KeyboardEvent, inTextField: boolean): boolean {
  const key = event.key;
  const ctrl = event.ctrlKey || event.metaKey;
  if (/^F\d+$/.test(key) || key === 'Escape' || event.altKey || (ctrl && key === 'Enter')) return true;
  return !inTextField && (key === 'ArrowUp' || key === 'ArrowDown' || (ctrl && key.toLowerCase() === 'z'));
}

/** A command key pressed while scans are still being handled acts after them, as they were pressed. */
function commandInOrder(event: KeyboardEvent, inTextField: boolean): boolean {
  if (scanQueue.size === 0 || !actsOnScreen(event, inTextField)) return command(event, inTextField);
  afterScans(() => command(event, inTextField));
  return true;
}

function command(event: KeyboardEvent, inTextField: boolean): boolean {
  const key = keyNameOf(event);
  if (key === null) return false;
  // What is open over the screen goes first: Esc closes the supervisor's sign-in, then an override.
  if (key === 'Esc' && useSupervisorSession.getState().asking) {
    useSupervisorSession.getState().cancel();
    focusScan();
    return true;
  }
  if (key === 'Esc' && useOverride.getState().state.step !== 'closed') {
    useOverride.getState().close();
    focusScan();
    return true;
  }
  const context = currentKeyContext();
  const found = keyRowFor(context, key, inTextField);
  if (found?.run) return runKey(found.run, key, inTextField);
  const open = REFUSED_AS_LOCKED[context];
  if (open && keyRowFor(open, key, inTextField)) {
    refuseWhenLocked();
    return true;
  }
  return keptFromBrowser(key, inTextField);
}

/** Runs a key's action (its row in the key table); true when the browser's default is to be kept from it. */
function runKey(run: KeyAction, key: string, inTextField: boolean): boolean {
  if (run.startsWith('go:')) {
    const go = run.slice(3) as NavTarget;
    if (useNav.getState().screen === 'package') back();
    useNav.getState().go(go);
    // Unless the screen kept the worker (the rules, not saved).
    if (useNav.getState().screen === go) focusScan();
    return true;
  }
  switch (run) {
    case 'supervisor':
      useSupervisorSession.getState().ask();
      return true;
    // Settings shows one section at a time: Alt and its number selects one.
    case 'settings-section':
      return showSettingsSection(Number(key.slice(4)));
    case 'override':
      if (usePackage.getState().selectedKey === null) notify('warning', 'Scan an item first, then override where it goes (F10).');
      else useOverride.getState().open();
      return true;
    case 'leave-settings':
      // Settings is all fields: Esc leaves it from any of them, back to where it was opened.
      leaveSettings();
      return true;
    case 'leave-form':
      // The rules and workers screens are all fields: Esc leaves them from any of them (the rules ask once when not saved).
      back();
      if (useNav.getState().screen !== 'rules') focusScan();
      return true;
    case 'back':
    case 'clear':
      return escape(inTextField);
    case 'receive':
      void receive();
      return true;
    case 'defective':
      toggleDefective();
      return true;
    case 'split':
      splitUnit();
      return true;
    case 'correct':
      correctReceipt();
      return true;
    case 'label':
      void printSelectedLabel();
      return true;
    case 'evidence':
      void evidencePackOfOpenPackage();
      return true;
    case 'photo':
      void takePhoto();
      return true;
    case 'undo':
      undo();
      return true;
    case 'camera':
      void toggleCameraScan();
      return true;
    case 'item-up':
    case 'item-down':
      usePackage.getState().moveSelection(run === 'item-up' ? -1 : 1);
      return true;
    default:
      return false;
  }
}

/** Esc: out of a field to the scan field, else the scan field emptied, else back (on the scan screen: its results cleared). */
function escape(inTextField: boolean): boolean {
  if (inTextField) {
    focusScan();
    return true;
  }
  const field = scanField();
  const screen = useNav.getState().screen;
  if (field && field.value !== '') field.value = '';
  else if (screen !== 'scan') back();
  else useScan.getState().clear();
  return true;
}

/** Installs the station's keyboard handling on the window; returns the uninstall function. */
export function installStationKeyboard(): () => void {
  onCommandBarcode(runCommandBarcode);
  const uninstall = installKeyCapture({
    field: scanField,
    // A keyboard-wedge scale's weight is never a scan (scale/wedge-keys.ts).
    submit: (code) => {
      if (!takeScaleKeys(code)) submitScan(code);
    },
    // A badge scanned into the supervisor sign-in fills its field instead of switching the worker.
    claims: (code) => (useSession.getState().byBadge(code) !== null && useSupervisorSession.getState().asking === null) || isCommandCode(code),
    isShortcut: (char) => shortcutFor(char) !== null || (scanQueue.size > 0 && MAY_BE_SHORTCUT.test(char)),
    shortcut: (char) => afterScans(() => runShortcut(char)),
    refuse: (message) => notify('warning', message),
    prompting: () => useNav.getState().screen === 'package' && useOverride.getState().state.step === 'pick',
    pending: previewHeldKey,
    command: (event, inTextField) => takeScalePrefixKey(event) || commandInOrder(event, inTextField),
    framing: () => useStationSettings.getState().framing,
  });
  // After a click on any button the keyboard belongs to the scan field again.
  const onClick = (event: MouseEvent) => {
    const el = event.target instanceof Element ? event.target.closest('button, a, [role="button"]') : null;
    if (el && !el.closest('form')) setTimeout(focusScan, 0);
  };
  document.addEventListener('click', onClick);
  return () => {
    uninstall();
    document.removeEventListener('click', onClick);
  };
}
