import { useEffect } from 'react';
import { pageClient } from './api/station-api.ts';
import { useShallow } from 'zustand/react/shallow';
import { ScanBar } from './components/ScanBar.tsx';
import { ShortcutHints } from './components/ShortcutHints.tsx';
import { StationHeader } from './components/StationHeader.tsx';
import { PackagesScreen } from './lists/PackagesScreen.tsx';
import { ReturnsScreen } from './lists/ReturnsScreen.tsx';
import { PackageScreen } from './receiving/PackageScreen.tsx';
import { ScanScreen } from './receiving/ScanScreen.tsx';
import { RulesScreen } from './rules/RulesScreen.tsx';
import { SettingsScreen } from './settings/SettingsScreen.tsx';
import { RegisterScreen } from './registering/RegisterScreen.tsx';
import { SignInScreen } from './session/SignInScreen.tsx';
import { SupervisorDialog } from './session/SupervisorSignIn.tsx';
import { WorkersScreen } from './workers/WorkersScreen.tsx';
import { useSession } from './session/session-store.ts';
import { useNav } from './state/nav-store.ts';
import { useStationLink } from './state/station-link.ts';
import { SupervisorScreen } from './supervisor/SupervisorScreen.tsx';
import { ReviewScreen } from './review/ReviewScreen.tsx';
import { SyncScreen } from './sync/SyncScreen.tsx';
import { CommandsScreen } from './workflow/CommandsScreen.tsx';
import { PdfLink } from './printing/PdfLink.tsx';
import { PrintQueueScreen } from './printing/PrintQueueScreen.tsx';
import { installStationKeyboard } from './workflow/keyboard.ts';
import { followAccounts } from './workflow/live-events.ts';

export function App() {
  // A new array only when the account ids change, so the event streams are not reopened on every status poll.
  const accounts = useStationLink(useShallow((s) => s.status?.accounts.map((a) => a.id) ?? []));
  const screen = useNav((s) => s.screen);
  const signedIn = useSession((s) => s.operator !== null);

  useEffect(() => installStationKeyboard(), []);
  useEffect(() => (accounts.length === 0 ? undefined : followAccounts(pageClient, accounts)), [accounts]);
  // Badges are recognised wherever they are scanned, also when the worker was signed in before a reload.
  useEffect(() => {
    if (signedIn && accounts.length > 0)
      useSession
        .getState()
        .loadOperators()
        .catch(() => undefined);
  }, [signedIn, accounts]);

  return (
    <div className="station-layout">
      <StationHeader />
      <ScanBar />
      {/* Keyed by the screen: each screen opens scrolled to its top, not where the last one was left. */}
      <main key={signedIn ? screen : 'signin'} className="station-work" aria-label="Work area" data-screen={signedIn ? screen : 'signin'}>
        {!signedIn ? (
          <SignInScreen />
        ) : screen === 'package' ? (
          <PackageScreen />
        ) : screen === 'register' ? (
          <RegisterScreen />
        ) : screen === 'packages' ? (
          <PackagesScreen />
        ) : screen === 'returns' ? (
          <ReturnsScreen />
        ) : screen === 'sync' ? (
          <SyncScreen />
        ) : screen === 'supervisor' ? (
          <SupervisorScreen />
        ) : screen === 'reviews' ? (
          <ReviewScreen />
        ) : screen === 'print-queue' ? (
          <PrintQueueScreen />
        ) : screen === 'rules' ? (
          <RulesScreen />
        ) : screen === 'settings' ? (
          <SettingsScreen />
        ) : screen === 'workers' ? (
          <WorkersScreen />
        ) : screen === 'commands' ? (
          <CommandsScreen />
        ) : (
          <ScanScreen />
        )}
      </main>
      <SupervisorDialog />
      <PdfLink />
      <ShortcutHints />
    </div>
  );
}
