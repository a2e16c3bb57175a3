import { type FormEvent, useEffect, useState } from 'react';
import { stationAddresses, stationUrlOf, type SyncChange, type SyncOverview } from '#shared/api/sync.ts';
import { useStationLink } from '../state/station-link.ts';
import { useSyncScreen } from './sync-store.ts';
import { upstreamFollowText } from './upstream-follow.ts';
import './sync.css';

const STATE_LABEL: Record<SyncChange['state'], string> = {
  parked: 'Refused by the upstream',
  gone: 'Gone upstream',
  retrying: 'Retrying',
  waiting: 'Waiting',
};

function ChangeRow({ change }: { change: SyncChange }) {
  const retry = useSyncScreen((s) => s.retry);
  const keepLocal = useSyncScreen((s) => s.keepLocal);
  const busy = useSyncScreen((s) => s.busy);
  const held = change.state === 'parked' || change.state === 'gone';
  return (
    <tr className={held ? 'sync-held' : undefined} data-testid="sync-change">
      <td>{change.kind === 'return_package' ? 'Package' : 'Return'}</td>
      <td>{change.label}</td>
      <td>{STATE_LABEL[change.state]}</td>
      <td className="sync-message" data-none={change.error ? undefined : ''}>
        {change.error ? `${change.error.message}${change.error.status ? ` (${change.error.status})` : ''}` : '—'}
      </td>
      <td className="sync-action">
        {(held || change.state === 'retrying') && (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void retry(change)}>
            Retry
          </button>
        )}
        {held && (
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void keepLocal(change)}>
            Keep local
          </button>
        )}
      </td>
    </tr>
  );
}

/** The settings form; keyed by the saved settings, so it starts from them again whenever they change. */
function UpstreamSettings() {
  const upstream = useSyncScreen((s) => s.overview?.upstream ?? null);
  const stationAccounts = useStationLink((s) => s.status?.accounts.map((a) => a.id).join(', ') ?? '');
  const accounts = upstream?.accounts.length ? upstream.accounts.join(', ') : stationAccounts;
  const saved = upstream?.returns_url && upstream.base_url ? { returns_url: upstream.returns_url, base_url: upstream.base_url } : null;
  return (
    <UpstreamForm
      key={`${saved?.returns_url ?? ''}|${saved?.base_url ?? ''}|${accounts}`}
      saved={saved}
      initialAccounts={accounts}
      tokenSet={upstream?.token_set ?? false}
    />
  );
}

interface Addresses {
  returns_url: string;
  base_url: string;
}

/**
 * The upstream's two addresses (the spec's `returns_url` and `base_url`), or one Returns Station's
 * address that gives both: the box switches between them, carrying what was typed over.
 */
function UpstreamForm({ saved, initialAccounts, tokenSet }: { saved: Addresses | null; initialAccounts: string; tokenSet: boolean }) {
  const save = useSyncScreen((s) => s.saveUpstream);
  const remove = useSyncScreen((s) => s.removeUpstream);
  const busy = useSyncScreen((s) => s.busy);
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
    <form className="sync-settings" onSubmit={submit} aria-label="Upstream settings">
      <h3>Upstream returns service</h3>
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
        Save and sync
      </button>
      {saved && (
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void remove()}>
          Switch sync off
        </button>
      )}
    </form>
  );
}

/** The sync screen: what has not gone up (refused ones first, with the upstream's own words), what sync replaced, and the settings. */
export function SyncScreen() {
  const { message, loadError, reload } = useSyncScreen();
  const sync = useStationLink((s) => s.status?.sync ?? null);
  useEffect(() => {
    void reload();
  }, [reload, sync?.state, sync?.pending_changes]);
  // A change's state moves on without the count changing (retrying, then waiting), and a load that
  // failed must not leave the screen wrong: while the screen is open it loads again every few seconds.
  useEffect(() => {
    const timer = setInterval(() => void reload(), SYNC_SCREEN_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return (
    <section className="sync-screen" aria-label="Sync">
      <h2>Sync with the upstream</h2>
      <SyncSummary />
      {message && (
        <p role="status" className="sync-outcome">
          {message}
        </p>
      )}
      {loadError && (
        <p role="alert" className="sync-error" data-testid="sync-load-error">
          {loadError}
        </p>
      )}
      {/* The upstream's setup first: on a first start it is what this screen is opened for. */}
      <UpstreamSettings />
      <WaitingChanges />
      <SyncIssues />
      <SyncConflicts />
      <UpstreamLists />
    </section>
  );
}

/** Where sync stands: changes waiting, the last success and error, a backoff of the upstream, media kept here, first pulls under way. */
function SyncSummary() {
  const sync = useStationLink((s) => s.status?.sync ?? null);
  const pulls = useSyncScreen((s) => s.overview?.pulls ?? NO_PULLS);
  const follow = sync ? upstreamFollowText(sync) : null;
  return (
    <>
      {sync && (
        <p data-testid="sync-summary">
          {sync.state === 'disabled' ? 'Sync is off.' : `${sync.pending_changes} change${sync.pending_changes === 1 ? '' : 's'} waiting.`}
          {sync.last_success_at && ` Last success ${new Date(sync.last_success_at).toLocaleString()}.`}
          {sync.last_error && <span className="sync-error"> {sync.last_error}</span>}
          {sync.backoff_until && (
            <span data-testid="sync-backoff"> The upstream is backing off: nothing is sent before {new Date(sync.backoff_until).toLocaleTimeString()}.</span>
          )}
        </p>
      )}
      {follow && (
        <p data-testid="sync-follow" data-follow={sync?.upstream_events ?? undefined}>
          {follow}
        </p>
      )}
      {sync?.media_kept_local && (
        <p role="status" className="sync-media-kept" data-testid="sync-media-kept-local">
          {sync.media_kept_local}
        </p>
      )}
      {pulls.map((pull) => (
        <p key={`${pull.account_id}:${pull.resource}`} role="status" data-testid="sync-pull">
          Pulling account {pull.account_id}: {pull.stored} of {pull.total ?? '?'} {pull.resource === 'returns' ? 'returns' : 'packages'}
        </p>
      ))}
    </>
  );
}

const NO_PULLS: SyncOverview['pulls'] = [];

const SYNC_SCREEN_REFRESH_MS = 5000;

function WaitingChanges() {
  const changes = useSyncScreen((s) => s.changes);
  const total = useSyncScreen((s) => s.total);
  const loaded = useSyncScreen((s) => s.loaded);
  if (!loaded) return <p data-testid="sync-changes-loading">Loading the waiting changes…</p>;
  if (changes.length === 0) return <p>Nothing waiting.</p>;
  return (
    <table className="sync-changes">
      <caption>Changes not yet taken by the upstream ({total})</caption>
      <thead>
        <tr>
          <th>What</th>
          <th>Which</th>
          <th>State</th>
          <th>Upstream says</th>
          <th>Action</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((change) => (
          <ChangeRow key={`${change.kind}:${change.id}`} change={change} />
        ))}
      </tbody>
    </table>
  );
}

/** The values sync replaced or kept, for a person to check. */
function SyncConflicts() {
  const conflicts = useSyncScreen((s) => s.overview?.conflicts ?? NO_CONFLICTS);
  if (conflicts.length === 0) return null;
  return (
    <details className="sync-conflicts">
      <summary>Values sync replaced or kept ({conflicts.length})</summary>
      <ul>
        {conflicts.map((c) => (
          <li key={c.id}>
            {c.kind === 'return_package' ? 'Package' : 'Return'} {c.record_id}, {c.field}: station {JSON.stringify(c.local_value)}, upstream{' '}
            {JSON.stringify(c.upstream_value)} — kept the {c.kept}'s
          </li>
        ))}
      </ul>
    </details>
  );
}

const NO_CONFLICTS: SyncOverview['conflicts'] = [];

/** Upstream records the station did not store, and values it did not take, each with the upstream's id. */
function SyncIssues() {
  const issues = useSyncScreen((s) => s.overview?.issues ?? NO_ISSUES);
  if (issues.length === 0) return null;
  return (
    <details className="sync-conflicts" open data-testid="sync-issues">
      <summary>Upstream records to look at ({issues.length})</summary>
      <ul>
        {issues.map((issue) => (
          <li key={`${issue.account_id}:${issue.kind}:${issue.upstream_id ?? ''}:${issue.message}`} data-testid="sync-issue">
            Account {issue.account_id}: {issue.message}
            {issue.stored ? '' : ' (not on this station)'}
          </li>
        ))}
      </ul>
    </details>
  );
}

const NO_ISSUES: SyncOverview['issues'] = [];

const ORDER_LABEL = { id_asc: 'by id, oldest first', id_desc: 'by id, newest first', unknown: 'in no id order' } as const;

/** What the station found out about the upstream's lists: page size, order, and whether it uses `updated_since`. */
function UpstreamLists() {
  const lists = useSyncScreen((s) => s.overview?.lists ?? NO_LISTS);
  if (lists.length === 0) return null;
  return (
    <details className="sync-conflicts" data-testid="sync-lists">
      <summary>What the upstream was found to do</summary>
      <ul>
        {lists.map((list) => (
          <li key={`${list.account_id}:${list.resource}`}>
            Account {list.account_id} {list.resource === 'returns' ? 'returns' : 'packages'}: {list.total ?? '?'} records, {list.page_size ?? '?'} a page,{' '}
            {list.order ? ORDER_LABEL[list.order] : 'order not seen yet'}; changes since: {list.changes}
            {list.contradiction && ` (last contradiction: ${list.contradiction})`}
          </li>
        ))}
      </ul>
    </details>
  );
}

const NO_LISTS: SyncOverview['lists'] = [];
