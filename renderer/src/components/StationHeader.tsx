import { useState } from 'react';
import { useSession } from '../session/session-store.ts';
import { useFeedback } from '../state/feedback-store.ts';
import { useNav, type Screen } from '../state/nav-store.ts';
import { useStationLink, type LinkState } from '../state/station-link.ts';
import { useHeldChanges } from '../receiving/held-changes.ts';
import { PrintIndicator } from '../printing/PrintIndicator.tsx';
import { SyncIndicator } from '../sync/SyncIndicator.tsx';
import { AboutBox } from './AboutBox.tsx';
import { NAV_KEYS, type NavTarget } from '../workflow/key-table.ts';
import { SupervisorState } from '../session/SupervisorSignIn.tsx';

const LINK_LABEL: Record<LinkState, string> = {
  connecting: 'Connecting…',
  online: 'Station online',
  unreachable: 'Station unreachable — work stays on screen',
};

const NAV: readonly { screen: NavTarget; label: string }[] = [
  { screen: 'scan', label: 'Receive' },
  { screen: 'packages', label: 'Packages' },
  { screen: 'returns', label: 'Returns' },
  { screen: 'supervisor', label: 'Today' },
];

/**
 * Always on screen, in two rows that never wrap to a third at a dock's width: the station's state
 * (name, whether it answers, sync, today's counts) and the worker's (who is signed in, the screens).
 * The worker's name wraps within its row rather than shortening; sync's waiting count and today's
 * counts shorten. On a handheld the
 * worker's row folds into a menu button, so every action stays reachable by touch.
 */
export function StationHeader() {
  const screen = useNav((s) => s.screen);
  const signedIn = useSession((s) => s.operator !== null);
  // The menu is open on the screen it was opened on: choosing a screen (or signing in or out) closes it.
  const here = `${signedIn ? 'in' : 'out'}:${screen}`;
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === here;
  return (
    <header className={`station-header ${menuOpen ? 'menu-open' : ''}`}>
      <StationRow menuOpen={menuOpen} toggleMenu={() => setOpenOn(menuOpen ? null : here)} />
      <StorageFull />
      <PrintIndicator />
      <div className="header-row header-work" id="station-menu" data-testid="station-menu">
        <OperatorState />
        <SupervisorState />
        <ScreenNav />
      </div>
    </header>
  );
}

/** The station's name and version, whether it answers, sync, today's counts, sound and about. */
function StationRow({ menuOpen, toggleMenu }: { menuOpen: boolean; toggleMenu(): void }) {
  const health = useStationLink((s) => s.health);
  const link = useStationLink((s) => s.link);
  const held = useHeldChanges();
  return (
    <div className="header-row header-status">
      <h1 className="station-name">{health?.name ?? 'Returns Station'}</h1>
      <span className="station-version" data-testid="station-version">
        {health ? `Version ${health.version}` : ''}
      </span>
      <span className={`link-state link-${link}`} role="status" data-testid="link-state">
        {link === 'unreachable' && held > 0 ? `Station unreachable — held ${held} change${held === 1 ? '' : 's'}` : LINK_LABEL[link]}
      </span>
      <SyncIndicator />
      <TodayCounts />
      <SoundToggle />
      <AboutBox />
      <button
        type="button"
        className="btn btn-small menu-button"
        aria-expanded={menuOpen}
        aria-controls="station-menu"
        data-testid="menu-button"
        onClick={toggleMenu}
      >
        Menu
      </button>
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
            <span className="operator-label">Signed in: </span>
            <strong>{operator.name}</strong>
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
    <span className="counts">
      <span className="count" data-testid="count-received">
        <span className="count-long">Received today:</span>
        <span className="count-short">Today:</span> <strong>{today?.received ?? '—'}</strong>
      </span>{' '}
      <span className="count" data-testid="count-in-progress">
        <span className="count-long">In progress:</span>
        <span className="count-short" title="In progress">
          Open:
        </span>{' '}
        <strong>{today?.in_progress ?? '—'}</strong>
      </span>
    </span>
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
        <button
          key={n.screen}
          type="button"
          className={`btn btn-nav ${navScreen === n.screen ? 'btn-active' : ''}`}
          aria-current={navScreen === n.screen ? 'page' : undefined}
          onClick={() => go(n.screen)}
        >
          {n.label} <kbd>{NAV_KEYS[n.screen]}</kbd>
        </button>
      ))}
      <SettingsButton />
    </nav>
  );
}

/** The settings screen, and the screens reached from it, are under this one button. */
const SETTINGS_SCREENS: readonly Screen[] = ['settings', 'rules', 'commands'];

function SettingsButton() {
  const screen = useNav((s) => s.screen);
  const go = useNav((s) => s.go);
  const here = SETTINGS_SCREENS.includes(screen);
  return (
    <button
      type="button"
      className={`btn btn-nav ${here ? 'btn-active' : ''}`}
      aria-current={here ? 'page' : undefined}
      data-testid="settings-button"
      onClick={() => go('settings')}
    >
      Settings
    </button>
  );
}
