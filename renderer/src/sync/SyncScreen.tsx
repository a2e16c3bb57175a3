import { type FormEvent, useEffect, useState } from 'react';
import type { SyncChange, SyncOverview } from '#shared/api/sync.ts';
import { useStationLink } from '../state/station-link.ts';
import { useSyncScreen } from './sync-store.ts';
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
      <td className="sync-message">{change.error ? `${change.error.message}${change.error.status ? ` (${change.error.status})` : ''}` : '—'}</td>
      <td>
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
  return <UpstreamForm key={`${upstream?.url ?? ''}|${accounts}`} initialUrl={upstream?.url ?? ''} initialAccounts={accounts} tokenSet={upstream?.token_set ?? false} />;
}

function UpstreamForm({ initialUrl, initialAccounts, tokenSet }: { initialUrl: string; initialAccounts: string; tokenSet: boolean }) {
  const save = useSyncScreen((s) => s.saveUpstream);
  const remove = useSyncScreen((s) => s.removeUpstream);
  const busy = useSyncScreen((s) => s.busy);
  const [url, setUrl] = useState(initialUrl);
  const [token, setToken] = useState('');
  const [accounts, setAccounts] = useState(initialAccounts);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ids = accounts.split(/[\s,]+/).filter(Boolean).map(Number);
    void save({ url: url.trim(), token: token.trim(), accounts: ids }).then((ok) => ok && setToken(''));
  };
  return (
    <form className="sync-settings" onSubmit={submit} aria-label="Upstream settings">
      <h3>Upstream returns service</h3>
      <label>
        URL <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://returns.example.com" />
      </label>
      <label>
        Token{' '}
        <input type="password" required autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} placeholder={tokenSet ? 'set — type a new one to replace it' : ''} />
      </label>
      <label>
        Accounts <input required value={accounts} onChange={(e) => setAccounts(e.target.value)} placeholder="1001, 1002" />
      </label>
      <button type="submit" className="btn btn-small" disabled={busy}>
        Save and sync
      </button>
      {initialUrl && (
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void remove()}>
          Switch sync off
        </button>
      )}
    </form>
  );
}

/** The sync screen: what has not gone up (refused ones first, with the upstream's own words), what sync replaced, and the settings. */
export function SyncScreen() {
  const { message, reload } = useSyncScreen();
  const sync = useStationLink((s) => s.status?.sync ?? null);
  useEffect(() => {
    void reload();
  }, [reload, sync?.state, sync?.pending_changes]);
  return (
    <section className="sync-screen" aria-label="Sync">
      <h2>Sync with the upstream</h2>
      <SyncSummary />
      {message && (
        <p role="status" className="sync-outcome">
          {message}
        </p>
      )}
      <WaitingChanges />
      <SyncConflicts />
      <UpstreamSettings />
    </section>
  );
}

/** Where sync stands: changes waiting, the last success and error, a backoff of the upstream, media kept here, first pulls under way. */
function SyncSummary() {
  const sync = useStationLink((s) => s.status?.sync ?? null);
  const pulls = useSyncScreen((s) => s.overview?.pulls ?? NO_PULLS);
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

function WaitingChanges() {
  const changes = useSyncScreen((s) => s.changes);
  const total = useSyncScreen((s) => s.total);
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
            {c.kind === 'return_package' ? 'Package' : 'Return'} {c.record_id}, {c.field}: station {JSON.stringify(c.local_value)}, upstream {JSON.stringify(c.upstream_value)} — kept the {c.kept}'s
          </li>
        ))}
      </ul>
    </details>
  );
}

const NO_CONFLICTS: SyncOverview['conflicts'] = [];
