import { useState } from 'react';
import { AccountSelect } from '../components/AccountSelect.tsx';

/** The search of a list: runs on Enter (or the button); its placeholder says what it takes, its label says it is a search. */
export function ListSearch(props: { search: string; onSearch(text: string): void }) {
  const [text, setText] = useState(props.search);
  const what = 'Search: tracking number, email, SKU or return id';
  // The field itself says what it takes in fewer words, which fit from a handheld's width up.
  const hint = 'Tracking, email, SKU or return id';
  return (
    <form
      role="search"
      className="search"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch(text);
      }}
    >
      <label className="search-field">
        <span className="sr-only">{what}</span>
        <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder={hint} data-testid="list-search" />
      </label>
      <button type="submit" className="btn btn-secondary">
        Search
      </button>
    </form>
  );
}

/**
 * Account and status filters of a list, in one row under the search. On a handheld they fold under
 * a Filters button (`open`), so the rows keep the screen.
 */
export function ListFilters<S extends string>(props: {
  label: string;
  statuses: readonly S[];
  selected: readonly S[];
  accountId: number | null;
  open: boolean;
  onAccount(id: number): void;
  /** Offer "All accounts" (the station token lists every account's records). */
  allAccounts?: boolean;
  onStatuses(statuses: S[]): void;
}) {
  return (
    <div className={`list-filters ${props.open ? 'list-filters-open' : ''}`} id={`${props.label.toLowerCase()}-filters`}>
      <AccountSelect className="list-account" value={props.accountId} onChange={props.onAccount} allowAll={props.allAccounts ?? false} />
      <div className="button-row" role="group" aria-label={`${props.label} status filter`}>
        <button
          type="button"
          className={`btn btn-filter ${props.selected.length === 0 ? 'btn-active' : ''}`}
          aria-pressed={props.selected.length === 0}
          onClick={() => props.onStatuses([])}
        >
          All
        </button>
        {props.statuses.map((s) => {
          const on = props.selected.includes(s);
          return (
            <button
              key={s}
              type="button"
              className={`btn btn-filter ${on ? 'btn-active' : ''}`}
              aria-pressed={on}
              onClick={() => props.onStatuses(on ? props.selected.filter((x) => x !== s) : [...props.selected, s])}
            >
              {s.replaceAll('_', ' ')}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** Shows or hides the filters where they fold (a handheld); says how many statuses are picked. */
export function FiltersToggle({ label, open, picked, onToggle }: { label: string; open: boolean; picked: number; onToggle(): void }) {
  return (
    <button type="button" className="btn btn-secondary filters-toggle" aria-expanded={open} aria-controls={`${label.toLowerCase()}-filters`} onClick={onToggle}>
      Filters{picked > 0 ? ` (${picked})` : ''}
    </button>
  );
}

/**
 * Previous and next page. `atLeast`: the station counted a broad search only in part (its total is
 * a lower bound), so more pages may follow the counted ones and the page has no "of".
 */
export function Pager({
  page,
  totalPages,
  total,
  atLeast = false,
  onPage,
}: {
  page: number;
  totalPages: number;
  total: number;
  atLeast?: boolean;
  onPage(page: number): void;
}) {
  return (
    <div className="pager" aria-label="Pages">
      <button type="button" className="btn btn-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span data-testid="pager">
        {atLeast
          ? `Page ${page} · at least ${total.toLocaleString('en')}`
          : `Page ${Math.min(page, Math.max(totalPages, 1))} of ${Math.max(totalPages, 1)} · ${total} in all`}
      </span>
      <button type="button" className="btn btn-secondary" disabled={!atLeast && page >= totalPages} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </div>
  );
}
