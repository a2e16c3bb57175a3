import { useEffect } from 'react';
import { PACKAGE_STATUSES } from '#shared/package-status.ts';
import { describeError } from '../api/describe-error.ts';
import { ListControls, Pager } from '../components/ListControls.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { notify } from '../state/feedback-store.ts';
import { usePackageList } from '../state/lists-store.ts';
import { useStationStore } from '../state/station-store.ts';
import { openPackage } from '../workflow/open-package.ts';

/** Every package of an account, newest change first; follows live changes. */
export function PackagesScreen() {
  const { query, rows, meta, loading, error, setQuery } = usePackageList();
  const firstAccount = useStationStore((s) => s.status?.accounts[0]?.id ?? null);

  useEffect(() => {
    if (query.accountId === null && firstAccount !== null) setQuery({ accountId: firstAccount });
    else void usePackageList.getState().reload();
  }, [firstAccount, query.accountId, setQuery]);

  const accountId = query.accountId;
  return (
    <section className="panel" aria-labelledby="packages-title">
      <h2 id="packages-title">Packages</h2>
      <ListControls
        label="Package"
        statuses={PACKAGE_STATUSES}
        selected={query.statuses}
        accountId={accountId}
        search={query.search}
        onAccount={(id) => setQuery({ accountId: id, page: 1 })}
        onStatuses={(statuses) => setQuery({ statuses, page: 1 })}
        onSearch={(search) => setQuery({ search, page: 1 })}
      />
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
      <table className="list" data-testid="package-list" aria-busy={loading}>
        <thead>
          <tr>
            <th scope="col">Tracking number</th>
            <th scope="col">Status</th>
            <th scope="col">Return</th>
            <th scope="col">Carrier</th>
            <th scope="col">Items</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.id} data-testid="package-row">
              <th scope="row">
                <button
                  type="button"
                  className="link-button mono"
                  onClick={() => accountId !== null && void openPackage(accountId, p.id, p.status, p.return_id).catch((e: unknown) => notify('error', describeError(e)))}
                >
                  {p.tracking_number}
                </button>
              </th>
              <td>
                <StatusBadge status={p.status} />
              </td>
              <td>#{p.return_id}</td>
              <td>{p.carrier?.name ?? '—'}</td>
              <td>{p.line_items_count}</td>
              <td>{new Date(p.updated_at).toLocaleString()}</td>
            </tr>
          ))}
          {rows.length === 0 && !loading && (
            <tr>
              <td colSpan={6}>No packages match.</td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager page={meta.current_page} totalPages={meta.total_pages} total={meta.total_count} onPage={(page) => setQuery({ page })} />
    </section>
  );
}
