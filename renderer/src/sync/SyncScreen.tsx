import { useEffect } from 'react';
import type { SyncChange, SyncOverview } from '#shared/api/sync.ts';
import { useStationLink } from '../state/station-link.ts';
import { useSyncScreen } from './sync-store.ts';
import { upstreamFollowText } from './upstream-follow.ts';
import { UpstreamForm } from './UpstreamForm.tsx';
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
  const save = useSyncScreen((s) => s.saveUpstream);
  const remove = useSyncScreen((s) => s.removeUpstream);
  const busy = useSyncScreen((s) => s.busy);
  return (
    <UpstreamForm
      key={`${saved?.returns_url ?? ''}|${saved?.base_url ?? ''}|${accounts}`}
      title="Upstream returns service"
      saved={saved}
      initialAccounts={accounts}
      tokenSet={upstream?.token_set ?? false}
      busy={busy}
      submitLabel="Save and sync"
      submit={save}
      remove={saved ? remove : undefined}
    />
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
