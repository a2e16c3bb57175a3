import { type FormEvent, useState } from 'react';
import { stationAddresses, stationUrlOf, type UpstreamSettingsInput } from '#shared/api/sync.ts';
import './sync.css';

/*
 * A returns service's link as an operator enters it: its two addresses or one Returns Station's, the
 * token and the accounts. The sync screen saves it as the upstream; Settings → Site gives it to a
 * member that takes over as the hub when its hub is lost.
 */

interface Addresses {
  returns_url: string;
  base_url: string;
}

/**
 * The upstream's two addresses (the spec's `returns_url` and `base_url`), or one Returns Station's
 * address that gives both: the box switches between them, carrying what was typed over.
 */
export function UpstreamForm({
  title,
  saved,
  initialAccounts,
  tokenSet,
  busy,
  submitLabel,
  submit: save,
  remove,
}: {
  title: string;
  saved: Addresses | null;
  initialAccounts: string;
  tokenSet: boolean;
  busy: boolean;
  submitLabel: string;
  /** Resolves true once taken (the token field is then emptied). */
  submit: (input: UpstreamSettingsInput) => Promise<boolean>;
  /** Offered when given: switches the link off. */
  remove?: (() => Promise<void>) | undefined;
}) {
  const savedStation = saved ? stationUrlOf(saved) : null;
  const [oneStation, setOneStation] = useState(saved === null || savedStation !== null);
  const [url, setUrl] = useState(savedStation ?? '');
  const [returnsUrl, setReturnsUrl] = useState(saved?.returns_url ?? '');
  const [baseUrl, setBaseUrl] = useState(saved?.base_url ?? '');
  const [token, setToken] = useState('');
  const [accounts, setAccounts] = useState(initialAccounts);
  const switchTo = (station: boolean) => {
    if (station) setUrl(stationUrlOf({ returns_url: returnsUrl.trim(), base_url: baseUrl.trim() }) ?? returnsUrl.trim());
    else if (url.trim() !== '') {
      // Both addresses filled from the station's, to adjust.
      const both = stationAddresses(url.trim());
      setReturnsUrl(both.returns_url);
      setBaseUrl(both.base_url);
    }
    setOneStation(station);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ids = accounts
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    const addresses = oneStation ? { url: url.trim() } : { returns_url: returnsUrl.trim(), base_url: baseUrl.trim() };
    void save({ ...addresses, token: token.trim(), accounts: ids }).then((ok) => ok && setToken(''));
  };
  const shown = oneStation && url.trim() !== '' ? stationAddresses(url.trim()) : null;
  return (
    <form className="sync-settings" onSubmit={submit} aria-label={title}>
      <h3>{title}</h3>
      {/* A toggle button, as elsewhere on the station: Enter switches it (printable keys belong to the scan field). */}
      <div className="sync-field">
        <button
          type="button"
          className={`btn btn-small btn-toggle ${oneStation ? 'btn-active' : ''}`}
          aria-pressed={oneStation}
          aria-describedby="sync-one-station-hint"
          onClick={() => switchTo(!oneStation)}
        >
          One Returns Station address
        </button>
        <small id="sync-one-station-hint" className="sync-hint">
          {oneStation
            ? 'One address gives both: returns_url is it, base_url is it plus /api. Switch off to enter the two.'
            : "The returns service's two addresses, returns_url and base_url, as its spec names them."}
        </small>
      </div>
      {oneStation ? (
        <div className="sync-field">
          <label>
            URL{' '}
            <input
              type="url"
              required
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://station.example.com"
              aria-describedby="sync-station-addresses"
            />
          </label>
          <small id="sync-station-addresses" className="sync-hint">
            {shown
              ? `Manual returns at ${shown.returns_url}/returns; packages at ${shown.base_url}/v1/…`
              : 'Manual returns at URL/returns; packages at URL/api/v1/…'}
          </small>
        </div>
      ) : (
        <>
          <div className="sync-field">
            <label>
              Returns address (returns_url){' '}
              <input
                type="url"
                required
                value={returnsUrl}
                onChange={(e) => setReturnsUrl(e.target.value)}
                placeholder="https://returns.example.com"
                aria-describedby="sync-returns-url-hint"
              />
            </label>
            <small id="sync-returns-url-hint" className="sync-hint">
              Manual returns are created and listed at returns_url/returns.
            </small>
          </div>
          <div className="sync-field">
            <label>
              API base address (base_url){' '}
              <input
                type="url"
                required
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.target.value)}
                placeholder="https://api.example.com"
                aria-describedby="sync-base-url-hint"
              />
            </label>
            <small id="sync-base-url-hint" className="sync-hint">
              Return packages are at base_url/v1/accounts/…/return_packages.
            </small>
          </div>
        </>
      )}
      <label>
        Token{' '}
        <input
          type="password"
          required
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          placeholder={tokenSet ? 'set — type a new one to replace it' : ''}
        />
      </label>
      <label>
        Accounts <input required value={accounts} onChange={(e) => setAccounts(e.target.value)} placeholder="1001, 1002" />
      </label>
      <button type="submit" className="btn btn-small" disabled={busy}>
        {submitLabel}
      </button>
      {remove && (
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void remove()}>
          Switch sync off
        </button>
      )}
    </form>
  );
}
