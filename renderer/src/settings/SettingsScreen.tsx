import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { type CurrencyCode, ISO_4217_CURRENCIES } from '#shared/api/currencies.ts';
import { useNav } from '../state/nav-store.ts';
import { DEFAULT_SUFFIX, keyNameProblem, type ScannerFraming, type StationSettingsUpdateInput } from '#shared/api/station-settings.ts';
import { useStationSettings } from '../state/station-settings.ts';
import { PrinterSettingsForm } from '../printing/PrinterSettingsForm.tsx';
import { ScaleSettingsSection } from '../scale/ScaleSettingsForm.tsx';
import { leaveSettings } from './leave-settings.ts';
import { SiteAddress } from './SiteAddress.tsx';
import { SiteManagedNote } from './SiteManagedNote.tsx';
import { useSiteManaged } from './site-managed.ts';
import { SiteSection } from './SiteSection.tsx';
import { SerialRulesForm } from './SerialRulesForm.tsx';
import { WeightCheckForm } from './WeightCheckForm.tsx';
import { SupervisorSignInButton } from '../session/SupervisorSignIn.tsx';
import { SETTINGS_SECTIONS } from './sections.ts';
import { settingsPanelId, settingsTabId, showSettingsSection, useSettingsSection } from './settings-section.ts';

/** The scanner's prefix and suffix keys, checked here first and then by the station. */
function ScannerForm({ framing, message, say }: { framing: ScannerFraming | null; message: string | null; say: (message: string | null) => void }) {
  const [prefix, setPrefix] = useState(framing?.prefix ?? '');
  const [suffix, setSuffix] = useState(framing?.suffix ?? DEFAULT_SUFFIX);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const p = prefix.trim();
    const s = suffix.trim() || DEFAULT_SUFFIX;
    const problem = p === '' ? null : (keyNameProblem(p) ?? keyNameProblem(s) ?? (p === s ? 'The prefix and the suffix must be different keys.' : null));
    if (problem) return say(problem);
    const refused = await useStationSettings.getState().change({ scanner: p === '' ? null : { prefix: p, suffix: s } });
    say(refused ?? (p === '' ? 'Scans are told apart from typing by their speed.' : `Scans are what the scanner sends between ${p} and ${s}.`));
  };
  return (
    <form onSubmit={(e) => void save(e)} aria-label="Scanner">
      <p className="small">
        A key the scanner sends before and after every code (e.g. <kbd>F12</kbd> or <kbd>Ctrl+B</kbd>, then <kbd>Enter</kbd>). No prefix: scans are told by
        their speed.
      </p>
      <div className="settings-pair">
        <label>
          Scanner prefix key <input data-testid="scanner-prefix" value={prefix} onChange={(e) => setPrefix(e.target.value)} maxLength={20} size={8} />
        </label>
        <label>
          Scanner suffix key <input data-testid="scanner-suffix" value={suffix} onChange={(e) => setSuffix(e.target.value)} maxLength={20} size={8} />
        </label>
        <button type="submit" className="btn btn-small" data-testid="scanner-save">
          Save scanner
        </button>
      </div>
      {message && (
        <p role="status" data-testid="scanner-framing-state">
          {message}
        </p>
      )}
    </form>
  );
}

/**
 * The station's settings, a screen of its own (Esc leaves it): the scanner's prefix and suffix
 * (certainty that a scan is a scan), what receiving with conditions not set does, the currency of new
 * manual returns, where labels print, the scale, and the ways to the screens a supervisor keeps (workers,
 * disposition rules, command barcodes). One section at a time under a row of tabs that names them all
 * (Alt+1…5, or ← → on a tab), so each section fits a dock's screen with its save in view. Kept by the
 * station for all its terminals; a change applies at once (other terminals: within a status poll).
 */
export function SettingsScreen() {
  const section = useSettingsSection((s) => s.section);

  return (
    <section className="panel settings-screen" aria-labelledby="settings-title" data-testid="station-settings">
      <div className="settings-bar">
        <h2 id="settings-title">Station settings</h2>
        <button type="button" className="btn btn-small" data-testid="settings-close" onClick={leaveSettings}>
          Back <kbd>Esc</kbd>
        </button>
        <div role="tablist" aria-label="Sections" className="settings-tabs">
          <SettingsTab n={1} testId="settings-tab-station" />
          <SettingsTab n={2} testId="settings-tab-printer" />
          <SettingsTab n={3} testId="settings-tab-more" />
          <SettingsTab n={4} testId="settings-tab-site" />
          <SettingsTab n={5} testId="settings-tab-scale" />
        </div>
      </div>
      <div role="tabpanel" id={settingsPanelId(section)} aria-labelledby={settingsTabId(section)} className="settings-section">
        {section === 'station' && <StationSection />}
        {section === 'printer' && <PrinterSection />}
        {section === 'more' && <MoreSection />}
        {section === 'site' && <SiteSection />}
        {section === 'scale' && <ScaleSettingsSection />}
      </div>
    </section>
  );
}

/** The n-th section's tab (Alt+n): selected on a click, ← and → move to the tab beside it (the ARIA tabs pattern). */
function SettingsTab({ n, testId }: { n: number; testId: string }) {
  const selected = useSettingsSection((s) => s.section);
  const show = useSettingsSection((s) => s.show);
  const section = SETTINGS_SECTIONS[n - 1];
  if (!section) return null;
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const by = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (by === 0) return;
    event.preventDefault();
    showSettingsSection(((n - 1 + by + SETTINGS_SECTIONS.length) % SETTINGS_SECTIONS.length) + 1);
  };
  return (
    <button
      type="button"
      role="tab"
      id={settingsTabId(section.id)}
      aria-selected={section.id === selected}
      // Only the selected section's panel is on the page: the other tabs name none that is missing.
      aria-controls={section.id === selected ? settingsPanelId(section.id) : undefined}
      tabIndex={section.id === selected ? 0 : -1}
      className="btn btn-small settings-tab"
      data-testid={testId}
      onClick={() => show(section.id)}
      onKeyDown={onKeyDown}
    >
      {section.title} <kbd>Alt+{n}</kbd>
    </button>
  );
}

/** The scanner, receiving with conditions not set, the currency of new manual returns. */
function StationSection() {
  const framing = useStationSettings((s) => s.framing);
  const currency = useStationSettings((s) => s.currency);
  const unset = useStationSettings((s) => s.unsetConditions);
  const change = useStationSettings((s) => s.change);
  const [message, setMessage] = useState<string | null>(null);
  const changeAndSay = async (patch: StationSettingsUpdateInput) => setMessage(await change(patch));
  // On a site's member these two are the hub's (the scanner stays this station's own).
  const managed = useSiteManaged((s) => s.managed !== null);
  return (
    <>
      {/* Keyed by what the station holds: a change from any terminal shows in the fields. */}
      <ScannerForm key={framing ? `${framing.prefix} ${framing.suffix}` : ''} framing={framing} message={message} say={setMessage} />
      <div className="settings-column">
        <SiteManagedNote what="receiving with conditions not set and the currency" />
        <label>
          Receiving with conditions not set{' '}
          <select
            data-testid="unset-conditions"
            disabled={managed}
            value={unset}
            onChange={(e) => void changeAndSay({ unset_conditions: e.target.value === 'allow' ? 'allow' : 'confirm' })}
          >
            <option value="confirm">asks to confirm (F2 again)</option>
            <option value="allow">receives at once</option>
          </select>
        </label>
        <label>
          Station currency (new manual returns, when their account has none yet){' '}
          <select
            data-testid="station-currency"
            disabled={managed}
            value={currency ?? ''}
            onChange={(e) => void changeAndSay({ currency: e.target.value === '' ? null : (e.target.value as CurrencyCode) })}
          >
            <option value="">USD (not set)</option>
            {ISO_4217_CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
      </div>
    </>
  );
}

/** Where labels print, the package slip, a test print, the print queue. */
function PrinterSection() {
  const labels = useStationSettings((s) => s.labels);
  const [message, setMessage] = useState<string | null>(null);
  // Keyed by what the station holds: a change from any terminal shows in the fields.
  return <PrinterSettingsForm key={JSON.stringify(labels)} labels={labels} message={message} say={setMessage} />;
}

/** The ways to the screens a supervisor keeps, and the supervisor's sign-in. */
function MoreSection() {
  const go = useNav((s) => s.go);
  return (
    <div className="settings-links" data-testid="settings-links">
      <SupervisorSignInButton />
      <p>
        <button type="button" className="btn btn-small" data-testid="workers-link" onClick={() => go('workers')}>
          Workers <kbd>Alt+W</kbd>
        </button>{' '}
        — badges, sign-in keys, supervisors and PINs; deactivate (supervisor).
      </p>
      <p>
        <button type="button" className="btn btn-small" data-testid="disposition-rules-link" onClick={() => go('rules')}>
          Disposition rules
        </button>{' '}
        — where each inspected unit goes, and its bin (supervisor).
      </p>
      <p>
        <button type="button" className="btn btn-small" data-testid="command-barcodes-link" onClick={() => go('commands')}>
          Command barcodes to print
        </button>{' '}
        — a scanner alone can then do everything.
      </p>
      <SerialRulesForm />
      <WeightCheckForm />
      <SiteAddress />
    </div>
  );
}
