import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createStationApi } from './api/station-api.ts';
import { resolveConnection } from './connection.ts';
import { keepOfflineCopy } from './offline/offline-shell.ts';
import { isPairingPage, PairScreen, takePairingCode } from './pairing/PairScreen.tsx';
import { keepOpenPackageCopy } from './receiving/open-package-copy.ts';
import { resumePendingWork } from './receiving/page-package.ts';
import { releaseHeldScansWhenAnswered } from './receiving/release-held-scans.ts';
import { scanField } from './scan/scan-field.ts';
import { useStationLink } from './state/station-link.ts';
import { loadDockScale } from './weighing/dock-weighing.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
// This build's name: the entry script's address carries the hash of its contents.
keepOfflineCopy(new URL(import.meta.url).pathname);
if (isPairingPage()) {
  // A handheld pairing: no dock until it has a token of its own.
  createRoot(root).render(
    <StrictMode>
      <PairScreen initialCode={takePairingCode()} />
    </StrictMode>,
  );
} else startDock(root);

function startDock(root: HTMLElement): void {
  // The API client exists before the first render: screens may call the station in their first effect.
  // Its fetch tells the link whether the station answered, so the connection state follows real work too.
  const connection = resolveConnection();
  createStationApi(connection, (reachable) => useStationLink.getState().setReachable(reachable));
  // Parcels held while the station was away open when it answers (before the first answer, so a reload counts too).
  releaseHeldScansWhenAnswered(() => scanField()?.value ?? '');
  // The package on the bench is kept while open: a load that cannot reach the station reopens it.
  keepOpenPackageCopy();
  useStationLink.getState().watch(connection);
  // The dock's scale from the start: a keyboard scale's first weight is never taken for a scan.
  loadDockScale();
  // Work an earlier page left unsent (a reload, a closed tab) is sent again, oldest first.
  void resumePendingWork();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
