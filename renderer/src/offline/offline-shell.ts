import { Workbox } from 'workbox-window';
import { notify } from '../state/feedback-store.ts';
import { readSetting, writeSetting } from '../state/settings.ts';

/*
 * The page's side of the dock's offline copy (docs/decisions/offline-dock.md): registers the service
 * worker that keeps this build's files, so a handheld that reloads while its Wi-Fi is down still opens
 * the dock with its held work; and says when the page runs a new build for the first time.
 */

/** The service worker's script, built beside index.html by vite-plugin-pwa. */
const WORKER_URL = '/service-worker.js';
/** How often an open page asks the station whether its UI changed (an upgrade while a handheld is on). */
const UPDATE_CHECK_MS = 10 * 60_000;

/**
 * Where the offline copy is kept. Not in the Electron window: it is on the machine that runs the
 * station, which the app (re)starts before it loads the window, so there is nothing to be offline from;
 * a copy there could only be stale. A page that is not a secure context (plain http to another
 * machine) cannot have one.
 */
function offlineCopyWanted(): boolean {
  return window.station === undefined && window.isSecureContext && 'serviceWorker' in navigator;
}

/**
 * Registers the offline copy (the browser keeps it up to date: it compares the worker's script at each
 * load, and here every 10 minutes). `build` names the running build: the first load of a new one says so.
 */
export function keepOfflineCopy(build: string): void {
  sayWhenUpdated(build);
  if (!offlineCopyWanted()) {
    // A copy registered before (the same origin opened in a browser, or an older build) is removed.
    if ('serviceWorker' in navigator)
      void navigator.serviceWorker.getRegistrations().then(
        (all) => Promise.all(all.map((r) => r.unregister())),
        () => undefined,
      );
    return;
  }
  const worker = new Workbox(WORKER_URL, { scope: '/' });
  worker.register().then(
    (registration) => {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
    },
    // No copy (storage refused, private mode): the dock works as before, online only.
    () => undefined,
  );
}

const BUILD_SETTING = 'ui-build';

/** On the first load of a build other than the last one this browser ran, says the dock was updated. */
function sayWhenUpdated(build: string): void {
  const last = readSetting(BUILD_SETTING);
  writeSetting(BUILD_SETTING, build);
  if (last !== null && last !== build) notify('success', 'The dock was updated: this page runs the station’s new version.');
}
