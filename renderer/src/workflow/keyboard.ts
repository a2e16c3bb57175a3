import { describeError } from '../api/describe-error.ts';
import { useInProgress } from '../receiving/in-progress-store.ts';
import { useOverride } from '../receiving/override-store.ts';
import { usePackage } from '../receiving/page-package.ts';
import { useScan } from '../receiving/scan-result-store.ts';
import { afterScans, onCommandBarcode, openFound, scanQueue, submitScan } from '../receiving/scan-router.ts';
import { useRegister } from '../registering/register-store.ts';
import { conditionForKey } from '../inspect/conditions.ts';
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
 * The keyboard map of the station (also shown on screen by ShortcutHints):
 *   Enter scan · Esc back · F2 / Ctrl+Enter receive · F3 defective · F4 photo · F6 split a unit · F7 correct a receipt · F8 / Ctrl+Z undo
 *   F10 override the disposition (then 1–6 and why) · a bin's barcode confirms the put · F5 print (again) the unit's label
 *   F9 camera scan · 1–6 condition · ↑↓ item · + − add / remove a unit · 1–9 pick from a list
 * A lone 1–9, + or − is shown, not done, until Enter, a command key or the next scan (scan/key-capture.ts).
 *   Alt+S receive screen · Alt+P packages · Alt+R returns · Alt+D the dock today (supervisor) · Alt+L print queue
 *   Alt+W workers · Alt+U supervisor sign-in
 * A key pressed while scans are still being handled acts after them (the scan router's queue), as if
 * the station had answered at once: keys and scans act in the order the worker made them.
 */

function pickIndex(char: string): number | null {
  const n = Number.parseInt(char, 10);
  return Number.isInteger(n) && n >= 1 && n <= 9 ? n - 1 : null;
}

/** What a lone character does on the current screen, or null when it is just text. */
function shortcutFor(char: string): (() => void) | null {
  const session = useSession.getState();
  const index = pickIndex(char);
  if (!session.operator) {
    const operator = index === null ? undefined : (session.byKey(index + 1) ?? undefined);
    return operator
      ? () => {
          session.signIn(operator);
          notify('success', `Signed in: ${operator.name}`);
        }
      : null;
  }
  const screen = useNav.getState().screen;
  if (screen === 'package') {
    const pkg = usePackage.getState();
    if (pkg.selectedKey === null) return null;
    // F10 then a number: the disposition to override with.
    if (useOverride.getState().state.step === 'pick') return /^[1-6]$/.test(char) ? () => useOverride.getState().pick(Number(char) - 1) : null;
    if (/^[1-6]$/.test(char)) return () => setConditionKey(char);
    if (char === '+') return () => changeQuantity(1);
    if (char === '-') return () => changeQuantity(-1);
    return null;
  }
  if (screen === 'register') {
    const candidate = index === null ? undefined : useRegister.getState().candidates[index];
    return candidate
      ? () =>
          void useRegister
            .getState()
            .choose(candidate)
            .catch((e: unknown) => notify('error', describeError(e)))
      : null;
  }
  if (screen === 'scan') {
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
  const screen = useNav.getState().screen;
  const onPackage = screen === 'package';
  const key = event.key;
  if (key === 'Escape' && useSupervisorSession.getState().asking) {
    useSupervisorSession.getState().cancel();
    focusScan();
    return true;
  }
  if (event.altKey && event.code === 'KeyU' && !event.ctrlKey && !event.metaKey) {
    useSupervisorSession.getState().ask();
    return true;
  }
  if (event.altKey && !event.ctrlKey && !event.metaKey) {
    // Settings shows one section at a time: Alt and its number selects one.
    if (screen === 'settings' && /^Digit[1-9]$/.test(event.code)) return showSettingsSection(Number(event.code.slice(5)));
    const target = { KeyS: 'scan', KeyP: 'packages', KeyR: 'returns', KeyD: 'supervisor', KeyL: 'print-queue', KeyW: 'workers' } as const;
    const go = target[event.code as keyof typeof target];
    if (!go) return false;
    if (onPackage) back();
    useNav.getState().go(go);
    // Unless the screen kept the worker (the rules, not saved).
    if (useNav.getState().screen === go) focusScan();
    return true;
  }
  if (key === 'Escape' && useOverride.getState().state.step !== 'closed') {
    useOverride.getState().close();
    focusScan();
    return true;
  }
  if (key === 'F10') {
    if (onPackage) {
      if (usePackage.getState().selectedKey === null) notify('warning', 'Scan an item first, then override where it goes (F10).');
      else useOverride.getState().open();
    }
    return true;
  }
  if (key === 'Escape' && screen === 'settings') {
    // Settings is all fields: Esc leaves it from any of them, back to where it was opened.
    leaveSettings();
    return true;
  }
  if (key === 'Escape' && (screen === 'rules' || screen === 'workers')) {
    // The rules and workers screens are all fields: Esc leaves them from any of them (the rules ask once when not saved).
    back();
    if (useNav.getState().screen !== 'rules') focusScan();
    return true;
  }
  if (key === 'Escape') {
    if (inTextField) {
      focusScan();
      return true;
    }
    const field = scanField();
    if (field && field.value !== '') field.value = '';
    else if (screen !== 'scan') back();
    else useScan.getState().clear();
    return true;
  }
  if (key === 'F2' || (key === 'Enter' && event.ctrlKey)) {
    if (onPackage) void receive();
    return true;
  }
  if (key === 'F3') {
    if (onPackage) toggleDefective();
    return true;
  }
  if (key === 'F6') {
    if (onPackage) splitUnit();
    return true;
  }
  if (key === 'F7') {
    if (onPackage) correctReceipt();
    return true;
  }
  if (key === 'F5' && onPackage) {
    void printSelectedLabel();
    return true;
  }
  if (key === 'F4') {
    if (onPackage) void takePhoto();
    return true;
  }
  if (key === 'F8' || (key.toLowerCase() === 'z' && (event.ctrlKey || event.metaKey) && !inTextField)) {
    if (onPackage) undo();
    return true;
  }
  if (key === 'F9') {
    void toggleCameraScan();
    return true;
  }
  if ((key === 'ArrowUp' || key === 'ArrowDown') && onPackage && !inTextField) {
    usePackage.getState().moveSelection(key === 'ArrowUp' ? -1 : 1);
    return true;
  }
  return false;
}

/** Installs the station's keyboard handling on the window; returns the uninstall function. */
export function installStationKeyboard(): () => void {
  onCommandBarcode(runCommandBarcode);
  const uninstall = installKeyCapture({
    field: scanField,
    submit: submitScan,
    // A badge scanned into the supervisor sign-in fills its field instead of switching the worker.
    claims: (code) => (useSession.getState().byBadge(code) !== null && useSupervisorSession.getState().asking === null) || isCommandCode(code),
    isShortcut: (char) => shortcutFor(char) !== null || (scanQueue.size > 0 && MAY_BE_SHORTCUT.test(char)),
    shortcut: (char) => afterScans(() => runShortcut(char)),
    refuse: (message) => notify('warning', message),
    prompting: () => useNav.getState().screen === 'package' && useOverride.getState().state.step === 'pick',
    pending: previewHeldKey,
    command: commandInOrder,
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
