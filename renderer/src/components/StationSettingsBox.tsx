import { useState, type FormEvent } from 'react';
import { type CurrencyCode, ISO_4217_CURRENCIES } from '#shared/api/currencies.ts';
import { useNav } from '../state/nav-store.ts';
import { useStationSettings } from '../state/station-settings.ts';

/**
 * The station's settings: the scanner's prefix and suffix (certainty that a scan is a scan) and what
 * receiving with conditions not set does. Beside the About box; changes apply at once.
 */
export function StationSettingsBox() {
  const framing = useStationSettings((s) => s.framing);
  const currency = useStationSettings((s) => s.currency);
  const unset = useStationSettings((s) => s.unsetConditions);
  const [prefix, setPrefix] = useState(framing?.prefix ?? '');
  const [suffix, setSuffix] = useState(framing?.suffix ?? 'Enter');
  const [message, setMessage] = useState<string | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const problem = useStationSettings.getState().setFraming(prefix, suffix);
    setMessage(problem ?? (prefix.trim() === '' ? 'Scans are told apart from typing by their speed.' : `Scans are what the scanner sends between ${prefix.trim()} and ${suffix.trim() || 'Enter'}.`));
  };

  return (
    <details className="about-box settings-box" data-testid="station-settings">
      <summary className="btn btn-small">Settings</summary>
      <div className="settings-panel">
      <form onSubmit={save} aria-label="Scanner">
        <p>
          Scanner prefix and suffix: set the scanner to send a key before and after every code (e.g. prefix <kbd>F12</kbd> or <kbd>Ctrl+B</kbd>, suffix <kbd>Enter</kbd>). Leave the prefix empty to tell scans by their speed.
        </p>
        <label>
          Scanner prefix key <input data-testid="scanner-prefix" value={prefix} onChange={(e) => setPrefix(e.target.value)} maxLength={20} />
        </label>
        <label>
          Scanner suffix key <input data-testid="scanner-suffix" value={suffix} onChange={(e) => setSuffix(e.target.value)} maxLength={20} />
        </label>
        <button type="submit" className="btn btn-small" data-testid="scanner-save">
          Save scanner
        </button>
        {message && (
          <p role="status" data-testid="scanner-framing-state">
            {message}
          </p>
        )}
      </form>
      <label>
        Receiving with conditions not set{' '}
        <select data-testid="unset-conditions" value={unset} onChange={(e) => useStationSettings.getState().setUnsetConditions(e.target.value === 'allow' ? 'allow' : 'confirm')}>
          <option value="confirm">asks to confirm (F2 again)</option>
          <option value="allow">receives at once</option>
        </select>
      </label>
      <label>
        Station currency (new manual returns, when their account has none yet){' '}
        <select data-testid="station-currency" value={currency ?? ''} onChange={(e) => useStationSettings.getState().setCurrency(e.target.value === '' ? null : (e.target.value as CurrencyCode))}>
          <option value="">USD (not set)</option>
          {ISO_4217_CURRENCIES.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <p>
        <button type="button" className="btn btn-small" data-testid="command-barcodes-link" onClick={() => useNav.getState().go('commands')}>
          Command barcodes to print
        </button>{' '}
        — a scanner alone can then do everything.
      </p>
      </div>
    </details>
  );
}
