import { type ReactNode, useEffect, useState } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';
import { useStationLink } from '../state/station-link.ts';
import { FiltersToggle, ListFilters, ListSearch, Pager } from './ListControls.tsx';
import type { ListState } from './lists-store.ts';

export interface ListColumn<R> {
  title: string;
  cell(row: R): ReactNode;
  /** A column of long texts (an email, a return's lines): where room is short (800 px) they wrap, not cut. */
  long?: boolean;
}

/**
 * A list screen over one list store: the account (the station's first by default), status filters
 * and search, the table (its first column heads each row) and the pager. Follows live changes,
 * since live events reload the store.
 */
export function ListScreen<S extends string, R extends { id: number }>(props: {
  title: string;
  /** "Package", "Return": labels the controls and the empty state. */
  noun: string;
  statuses: readonly S[];
  store: UseBoundStore<StoreApi<ListState<S, R>>>;
  columns: [ListColumn<R>, ...ListColumn<R>[]];
  testId: string;
  rowTestId: string;
  /** The list can show every account at once. */
  allAccounts?: boolean;
}) {
  const { store, columns } = props;
  const { query, rows, meta, loading, error, setQuery } = store();
  const firstAccount = useStationLink((s) => s.status?.accounts[0]?.id ?? null);
  const [filtersOpen, setFiltersOpen] = useState(false);

  useEffect(() => {
    if (query.accountId === null && firstAccount !== null) setQuery({ accountId: firstAccount });
    else void store.getState().reload();
  }, [firstAccount, query.accountId, setQuery, store]);

  const titleId = `${props.testId}-title`;
  return (
    <section className="panel list-screen" aria-labelledby={titleId}>
      <div className="list-bar">
        <h2 id={titleId}>{props.title}</h2>
        <ListSearch search={query.search} onSearch={(search) => setQuery({ search, page: 1 })} />
        <FiltersToggle label={props.noun} open={filtersOpen} picked={query.statuses.length} onToggle={() => setFiltersOpen(!filtersOpen)} />
        <Pager
          page={meta.current_page}
          totalPages={meta.total_pages}
          total={meta.total_count}
          atLeast={meta.total_count_lower_bound === true && rows.length > 0}
          onPage={(page) => setQuery({ page })}
        />
      </div>
      <ListFilters
        label={props.noun}
        statuses={props.statuses}
        selected={query.statuses}
        accountId={query.accountId}
        open={filtersOpen}
        onAccount={(id) => setQuery({ accountId: id, page: 1 })}
        allAccounts={props.allAccounts ?? false}
        onStatuses={(statuses) => setQuery({ statuses, page: 1 })}
      />
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
      <div className="list-scroll">
        <ListTable columns={columns} rows={rows} loading={loading} noun={props.noun} testId={props.testId} rowTestId={props.rowTestId} />
      </div>
    </section>
  );
}

/** The list's rows under its column heads (the first column heads each row), or a line saying none match. */
function ListTable<R extends { id: number }>(props: {
  columns: [ListColumn<R>, ...ListColumn<R>[]];
  rows: readonly R[];
  loading: boolean;
  noun: string;
  testId: string;
  rowTestId: string;
}) {
  const { columns, rows, loading } = props;
  const [head, ...rest] = columns;
  return (
    <table className="list" data-testid={props.testId} aria-busy={loading}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.title} scope="col">
              {column.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-testid={props.rowTestId}>
            <th scope="row">{head.cell(row)}</th>
            {rest.map((column) => (
              <td key={column.title} className={column.long ? 'list-long' : undefined}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
        {rows.length === 0 && !loading && (
          <tr>
            <td colSpan={columns.length}>No {props.noun.toLowerCase()}s match.</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
