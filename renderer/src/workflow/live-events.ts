import type { ApiClient } from '#shared/api/client.ts';
import type { StationEvent } from '#shared/api/events.ts';
import { usePackageList, useReturnList } from '../lists/lists-store.ts';
import { usePackage } from '../receiving/page-package.ts';
import { useNav } from '../state/nav-store.ts';
import { stationBack, useStationLink } from '../state/station-link.ts';
import { setSyncStatus } from '../sync/sync-store.ts';

/*
 * Follows every account's event stream. Changes reach the open package at once; lists and today's
 * counts reload at most a few times a second however busy the stream is.
 */

function debounce(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      fn();
    }, ms);
  };
}

const reloadLists = debounce(() => {
  const screen = useNav.getState().screen;
  if (screen === 'packages') void usePackageList.getState().reload();
  if (screen === 'returns') void useReturnList.getState().reload();
}, 150);
const reloadCounts = debounce(() => void useStationLink.getState().refreshStatus(), 500);

export function handleEvent(event: StationEvent): void {
  if (event.event === 'package.created' || event.event === 'package.updated') {
    usePackage.getState().applyRemote(event.data.package);
  }
  if (event.event === 'sync.status') {
    setSyncStatus(event.data.sync);
    return;
  }
  // The station's workers, rules or settings changed: for a site's members (site-config.md), not the lists.
  if (event.event === 'site.config') return;
  reloadLists();
  reloadCounts();
}

/** Subscribes through `client` to the events of each account; returns a stop function. */
export function followAccounts(client: Pick<ApiClient, 'subscribeEvents'>, accountIds: readonly number[], reconnectMs = 2000): () => void {
  const controller = new AbortController();
  for (const accountId of accountIds) {
    void client.subscribeEvents(accountId, { signal: controller.signal, onEvent: handleEvent, reconnectMs, stationBack }).catch(() => undefined);
  }
  return () => controller.abort();
}
