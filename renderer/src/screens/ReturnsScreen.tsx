import { useEffect } from 'react';
import { RETURN_STATUSES } from '#shared/api/returns.ts';
import { ListControls, Pager } from '../components/ListControls.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { useReturnList } from '../state/lists-store.ts';
import { useStationStore } from '../state/station-store.ts';

/** Every return of an account, newest first, with expected and still-due units; follows live changes. */
export function ReturnsScreen() {
  const { query, rows, meta, loading, error, setQuery } = useReturnList();
  const firstAccount = useStationStore((s) => s.status?.accounts[0]?.id ?? null);

  useEffect(() => {
    if (query.accountId === null && firstAccount !== null) setQuery({ accountId: firstAccount });
    else void useReturnList.getState().reload();
  }, [firstAccount, query.accountId, setQuery]);

  return (
    <section className="panel" aria-labelledby="returns-title">
      <h2 id="returns-title">Returns</h2>
      <ListControls
        label="Return"
        statuses={RETURN_STATUSES}
        selected={query.statuses}
        accountId={query.accountId}
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
      <table className="list" data-testid="return-list" aria-busy={loading}>
        <thead>
          <tr>
            <th scope="col">Return</th>
            <th scope="col">Customer</th>
            <th scope="col">Status</th>
            <th scope="col">Lines</th>
            <th scope="col">Units due</th>
            <th scope="col">Receive by</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid="return-row">
              <th scope="row">#{r.id}</th>
              <td>{r.email}</td>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td>{r.return_line_items.map((l) => `${l.merchant_sku} ×${l.quantity}`).join(', ')}</td>
              <td>{r.return_line_items.reduce((sum, l) => sum + l.unreceived_quantity, 0)}</td>
              <td>{r.receive_by}</td>
            </tr>
          ))}
          {rows.length === 0 && !loading && (
            <tr>
              <td colSpan={6}>No returns match.</td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager page={meta.current_page} totalPages={meta.total_pages} total={meta.total_count} onPage={(page) => setQuery({ page })} />
    </section>
  );
}
