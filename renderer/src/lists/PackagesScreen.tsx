import { PACKAGE_STATUSES } from '#shared/package-status.ts';
import { describeError } from '../api/describe-error.ts';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { openPackage } from '../receiving/open-package.ts';
import { notify } from '../state/feedback-store.ts';
import { ListScreen } from './ListScreen.tsx';
import { usePackageList } from './lists-store.ts';

/** Every package of an account (or of all accounts), newest change first; follows live changes. */
export function PackagesScreen() {
  return (
    <ListScreen
      title="Packages"
      noun="Package"
      statuses={PACKAGE_STATUSES}
      store={usePackageList}
      testId="package-list"
      rowTestId="package-row"
      allAccounts
      columns={[
        {
          title: 'Tracking number',
          cell: (p) => (
            <button
              type="button"
              className="link-button mono"
              onClick={() => void openPackage(p.account_id, p.id, p.status, p.return_id).catch((e: unknown) => notify('error', describeError(e)))}
            >
              {p.tracking_number}
            </button>
          ),
        },
        { title: 'Account', cell: (p) => p.account_id },
        { title: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
        { title: 'Return', cell: (p) => `#${p.return_id}` },
        { title: 'Carrier', cell: (p) => p.carrier?.name ?? '—' },
        { title: 'Items', cell: (p) => p.line_items_count },
        // Minutes are what a worker compares; the seconds are in the package's own view.
        { title: 'Updated', cell: (p) => new Date(p.updated_at).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' }) },
      ]}
    />
  );
}
