import { type RefObject, useEffect, useRef } from 'react';
import { conditionLabel } from '../inspect/conditions.ts';
import type { Draft, LineRow } from '../inspect/drafts.ts';
import { usePackage } from './page-package.ts';
import { DispositionChip } from './DispositionBanner.tsx';

/** Expected lines with expected, received before, this package and still-due side by side. */
export function LineTable({ rows, extra }: { rows: LineRow[]; extra: Draft[] }) {
  const selectedKey = usePackage((s) => s.selectedKey);
  const select = usePackage((s) => s.select);
  const table = useRef<HTMLTableElement>(null);
  useRevealSelected(table, selectedKey, rows.length, extra.length);

  return (
    <table className="lines" data-testid="lines" ref={table}>
      <caption className="sr-only">Expected items and what this package holds</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Expected</th>
          <th scope="col" title="Received in earlier packages">
            Before
          </th>
          <th scope="col" title="In this package">
            Here
          </th>
          <th scope="col" title="Still due">
            Due
          </th>
          <th scope="col">Condition</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <ExpectedLine key={row.line.id} row={row} selectedKey={selectedKey} select={select} />
        ))}
        {extra.map((d) => (
          <UnexpectedItem key={d.key} draft={d} selected={d.key === selectedKey} select={select} />
        ))}
        {rows.length === 0 && extra.length === 0 && (
          <tr>
            <td colSpan={6}>Nothing to show.</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/**
 * The selected row is always in view: after a scan or a split (F6), and whenever the list's box
 * changes size (the return loads, a notice wraps, the window is resized).
 */
function useRevealSelected(table: RefObject<HTMLTableElement | null>, selectedKey: string | null, lines: number, unexpected: number) {
  useEffect(() => {
    const reveal = () => table.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
    reveal();
    const box = table.current?.parentElement;
    if (!box) return undefined;
    const observer = new ResizeObserver(reveal);
    observer.observe(box);
    return () => observer.disconnect();
  }, [table, selectedKey, lines, unexpected]);
}

interface RowProps {
  select: (key: string) => void;
}

const conditionText = (draft: Draft) => `${conditionLabel(draft.condition)}${draft.defective ? ' · defective' : ''}`;

/** A return line: expected, before, here, due, and its first unit; then one row per further unit, each its own. */
function ExpectedLine({ row, selectedKey, select }: RowProps & { row: LineRow; selectedKey: string | null }) {
  const over = row.remaining < 0;
  const selected = row.draft !== null && row.draft.key === selectedKey;
  return (
    <>
      <tr
        className={`${over ? 'row-over' : row.here > 0 && row.remaining === 0 ? 'row-done' : ''} ${selected ? 'row-selected' : ''}`}
        data-testid="line-row"
        data-sku={row.line.merchant_sku}
        aria-selected={selected}
      >
        <th scope="row">
          {row.draft ? (
            <button type="button" className="link-button" onClick={() => row.draft && select(row.draft.key)}>
              {row.line.name}
            </button>
          ) : (
            row.line.name
          )}
          <span className="sku mono">{row.line.merchant_sku}</span>
        </th>
        <td>{row.expected}</td>
        <td>{row.receivedBefore}</td>
        <td className="here" data-testid="line-here">
          {row.here}
        </td>
        <td data-testid="line-remaining">{over ? `${-row.remaining} over` : row.remaining}</td>
        <td>
          {row.draft ? conditionText(row.draft) : '—'}
          {row.draft && row.draft.quantity > 1 ? ` × ${row.draft.quantity}` : ''}
          {row.draft && <DispositionChip draft={row.draft} />}
        </td>
      </tr>
      {row.others.map((d, i) => (
        <tr
          key={d.key}
          className={`row-unit ${d.key === selectedKey ? 'row-selected' : ''}`}
          data-testid="unit-row"
          data-sku={row.line.merchant_sku}
          aria-selected={d.key === selectedKey}
        >
          <th scope="row">
            <button type="button" className="link-button" onClick={() => select(d.key)}>
              {row.line.name}
            </button>
            <span className="sku mono">
              unit {i + 2} · {row.line.merchant_sku}
            </span>
          </th>
          <td colSpan={2} />
          <td className="here">{d.quantity > 1 ? d.quantity : ''}</td>
          <td />
          <td>
            {conditionText(d)}
            {d.quantity > 1 ? ` × ${d.quantity}` : ''}
            <DispositionChip draft={d} />
          </td>
        </tr>
      ))}
    </>
  );
}

/** An item scanned that is not on the return: all of it is over. */
function UnexpectedItem({ draft, selected, select }: RowProps & { draft: Draft; selected: boolean }) {
  return (
    <tr className={`row-unexpected ${selected ? 'row-selected' : ''}`} data-testid="unexpected-row" aria-selected={selected}>
      <th scope="row">
        <button type="button" className="link-button" onClick={() => select(draft.key)}>
          {draft.name ?? 'Unexpected item'}
        </button>
        <span className="sku mono">not on this return</span>
      </th>
      <td>0</td>
      <td>—</td>
      <td className="here" data-testid="line-here">
        {draft.quantity}
      </td>
      <td>{draft.quantity} over</td>
      <td>
        {conditionText(draft)}
        <DispositionChip draft={draft} />
      </td>
    </tr>
  );
}
