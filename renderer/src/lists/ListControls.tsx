import { useState } from 'react';
import { AccountSelect } from '../components/AccountSelect.tsx';

/** Account, status filters and search of a list; search runs on Enter (or the button). */
export function ListControls<S extends string>(props: {
  label: string;
  statuses: readonly S[];
  selected: readonly S[];
  accountId: number | null;
  search: string;
  onAccount(id: number): void;
  /** Offer "All accounts" (the station token lists every account's records). */
  allAccounts?: boolean;
  onStatuses(statuses: S[]): void;
  onSearch(text: string): void;
}) {
  const [text, setText] = useState(props.search);
  return (
    <div className="list-controls">
      <AccountSelect className="text-field narrow" value={props.accountId} onChange={props.onAccount} allowAll={props.allAccounts ?? false} />
      <div className="button-row" role="group" aria-label={`${props.label} status filter`}>
        <button type="button" className={`btn btn-filter ${props.selected.length === 0 ? 'btn-active' : ''}`} aria-pressed={props.selected.length === 0} onClick={() => props.onStatuses([])}>
          All
        </button>
        {props.statuses.map((s) => {
          const on = props.selected.includes(s);
          return (
            <button key={s} type="button" className={`btn btn-filter ${on ? 'btn-active' : ''}`} aria-pressed={on} onClick={() => props.onStatuses(on ? props.selected.filter((x) => x !== s) : [...props.selected, s])}>
              {s.replaceAll('_', ' ')}
            </button>
          );
        })}
      </div>
      <form
        role="search"
        className="search"
        onSubmit={(e) => {
          e.preventDefault();
          props.onSearch(text);
        }}
      >
        <label className="text-field">
          <span>Search: tracking number, email, SKU or return id</span>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} data-testid="list-search" />
        </label>
        <button type="submit" className="btn btn-secondary">
          Search
        </button>
      </form>
    </div>
  );
}

export function Pager({ page, totalPages, total, onPage }: { page: number; totalPages: number; total: number; onPage(page: number): void }) {
  return (
    <div className="pager" aria-label="Pages">
      <button type="button" className="btn btn-secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span data-testid="pager">
        Page {Math.min(page, Math.max(totalPages, 1))} of {Math.max(totalPages, 1)} · {total} in all
      </span>
      <button type="button" className="btn btn-secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </div>
  );
}
