/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

/*
 * The dock's offline copy (docs/decisions/offline-dock.md). Only the built UI is kept: the files of
 * this build, listed with their hashes by vite-plugin-pwa at build time. Nothing the station answers
 * (the API, photos, the API reference) passes through here or is ever cached: those requests carry
 * the device's token and the returns' personal data, and go to the network as if there were no worker.
 */

declare const self: ServiceWorkerGlobalScope;

/** How long a page load waits for the station before the kept copy opens instead (a Wi-Fi that is up but reaches nothing). */
const PAGE_TIMEOUT_MS = 4000;

/**
 * The dock's page: always the station's own while it answers, so a station that was upgraded serves its
 * new UI on the very next load; the kept copy (of the same build as the kept scripts) only when the
 * station cannot be reached.
 */
registerRoute(
  new NavigationRoute(
    async ({ request }) => {
      try {
        return await fetch(request, { signal: AbortSignal.timeout(PAGE_TIMEOUT_MS) });
      } catch {
        return (await matchPrecache('index.html')) ?? Response.error();
      }
    },
    // The dock itself; not the pairing page (it needs the station) nor the API reference.
    { allowlist: [/^\/$/, /^\/index\.html$/] },
  ),
);

// After the page's route (routes match in the order they are registered): the build's scripts and styles, from the copy.
precacheAndRoute(self.__WB_MANIFEST);
// Caches of an older Workbox's format are deleted; this build's copy drops the last build's files when it takes over.
cleanupOutdatedCaches();

// A new build takes over as soon as it is installed: the pages it controls load its files from then on,
// and the page says so (offline-shell.ts). The old build's copy is never served again.
void self.skipWaiting();
clientsClaim();
