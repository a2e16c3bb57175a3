import { RETURN_STATUSES } from '#shared/api/returns.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { useNav } from '../state/nav-store.ts';
import { ListScreen } from './ListScreen.tsx';
import { usePackageList, useReturnList } from './lists-store.ts';

function openReturnPackages(accountId: number, returnId: number): void {
  usePackageList.getState().setQuery({ accountId, search: String(returnId), statuses: [], page: 1 });
  useNav.getState().go('packages');
}

/** Every return of an account, newest first, with expected and still-due units; follows live changes. A return's number opens its parcels. */
export function ReturnsScreen() {
  return (
    <ListScreen
      title="Returns"
      noun="Return"
      statuses={RETURN_STATUSES}
      store={useReturnList}
      testId="return-list"
      rowTestId="return-row"
      allAccounts
      columns={[
        {
          title: 'Return',
          cell: (r) => (
            // A return opens its parcels: the package list, searched by the return's id.
            <button type="button" className="link-button mono" data-testid="return-open" onClick={() => openReturnPackages(r.account_id, r.id)}>
              #{r.id}
            </button>
          ),
        },
        { title: 'Account', cell: (r) => r.account_id },
        {
          title: 'Customer',
          long: true,
          // Where it wraps, an email breaks before its @ rather than at any letter.
          cell: (r) => {
            const at = r.email.lastIndexOf('@');
            return at > 0 ? (
              <>
                {r.email.slice(0, at)}
                <wbr />
                {r.email.slice(at)}
              </>
            ) : (
              r.email
            );
          },
        },
        { title: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
        // A line's SKU and quantity stay together where the cell wraps.
        { title: 'Lines', long: true, cell: (r) => r.return_line_items.map((l) => `${l.merchant_sku}\u00a0×${l.quantity}`).join(', ') },
        { title: 'Units due', cell: (r) => r.return_line_items.reduce((sum, l) => sum + l.unreceived_quantity, 0) },
        { title: 'Receive by', cell: (r) => r.receive_by },
      ]}
    />
  );
}
