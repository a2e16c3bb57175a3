import { useSession } from '../session/session-store.ts';
import { useFeedback } from '../state/feedback-store.ts';
import { useNav, type Screen } from '../state/nav-store.ts';
import { useStationLink, type LinkState } from '../state/station-link.ts';
import { PrintIndicator } from '../printing/PrintIndicator.tsx';
import { SyncIndicator } from '../sync/SyncIndicator.tsx';
import { AboutBox } from './AboutBox.tsx';
import { StationSettingsBox } from './StationSettingsBox.tsx';

const LINK_LABEL: Record<LinkState, string> = {
  connecting: 'Connecting…',
  online: 'Station online',
  unreachable: 'Station unreachable — work stays on screen',
};

const NAV: readonly { screen: Screen; label: string; key: string }[] = [
  { screen: 'scan', label: 'Receive', key: 'Alt+S' },
  { screen: 'packages', label: 'Packages', key: 'Alt+P' },
  { screen: 'returns', label: 'Returns', key: 'Alt+R' },
  { screen: 'supervisor', label: 'Today', key: 'Alt+D' },
];

/** Always on screen: the station, who is signed in, today's counts and the connection state. */
export function StationHeader() {
  return (
    <header className="station-header">
      <StationRow />
      <StorageFull />
      <div className="header-row">
        <OperatorState />
        <TodayCounts />
        <SoundToggle />
        <ScreenNav />
      </div>
    </header>
  );
}

/** The station's name and version, whether it answers, sync, settings and about. */
function StationRow() {
  const health = useStationLink((s) => s.health);
  const link = useStationLink((s) => s.link);
  return (
    <div className="header-row">
      <h1 className="station-name">{health?.name ?? 'Returns Station'}</h1>
      <span className="station-version" data-testid="station-version">
        {health ? `Version ${health.version}` : ''}
      </span>
      <span className={`link-state link-${link}`} role="status" data-testid="link-state">
        {LINK_LABEL[link]}
      </span>
      <SyncIndicator />
      <PrintIndicator />
      <StationSettingsBox />
      <AboutBox />
    </div>
  );
}

function StorageFull() {
  const storage = useStationLink((s) => s.status?.storage ?? null);
  if (storage?.state !== 'full') return null;
  return (
    <div className="header-row storage-full" role="alert" data-testid="storage-full">
      The station’s storage is full: new photos and changes cannot be saved. Tell the supervisor to free disk space
      {storage.media_budget_bytes !== null ? ' or raise the media budget' : ''}.
    </div>
  );
}

function OperatorState() {
  const operator = useSession((s) => s.operator);
  const signOut = useSession((s) => s.signOut);
  return (
    <>
      <span className="operator" data-testid="operator">
        {operator ? (
          <>
            Signed in: <strong>{operator.name}</strong>
          </>
        ) : (
          'Nobody signed in'
        )}
      </span>
      {operator && (
        <button type="button" className="btn btn-small" onClick={signOut}>
          Sign out
        </button>
      )}
    </>
  );
}

function TodayCounts() {
  const today = useStationLink((s) => s.status?.today ?? null);
  return (
    <>
      <span className="count" data-testid="count-received">
        Received today: <strong>{today?.received ?? '—'}</strong>
      </span>
      <span className="count" data-testid="count-in-progress">
        In progress: <strong>{today?.in_progress ?? '—'}</strong>
      </span>
    </>
  );
}

function SoundToggle() {
  const soundOn = useFeedback((s) => s.soundOn);
  const setSound = useFeedback((s) => s.setSound);
  return (
    <button type="button" className="btn btn-small" aria-pressed={soundOn} onClick={() => setSound(!soundOn)}>
      Sound {soundOn ? 'on' : 'off'}
    </button>
  );
}

/** The screens a worker switches between; a package and registering belong to Receive. */
function ScreenNav() {
  const screen = useNav((s) => s.screen);
  const go = useNav((s) => s.go);
  const navScreen = screen === 'package' || screen === 'register' ? 'scan' : screen;
  return (
    <nav className="nav" aria-label="Screens">
      {NAV.map((n) => (
        <button key={n.screen} type="button" className={`btn btn-nav ${navScreen === n.screen ? 'btn-active' : ''}`} aria-current={navScreen === n.screen ? 'page' : undefined} onClick={() => go(n.screen)}>
          {n.label} <kbd>{n.key}</kbd>
        </button>
      ))}
    </nav>
  );
}
