import type { Draft } from '../inspect/drafts.ts';
import { useDispositionRules } from '../state/disposition-rules.ts';

/*
 * Where the selected unit goes: its disposition, large and in the disposition's colour, its bin, and
 * whether the bin was scanned. Shown the moment its condition is set (the rules run on the screen).
 */

/** The disposition of the selected unit, or a hint while it has none. */
export function DispositionBanner({ draft }: { draft: Draft }) {
  const styles = useDispositionRules((s) => s.styles);
  if (draft.disposition === null) return null;
  const style = styles[draft.disposition];
  return (
    <p
      className="disposition-banner"
      data-testid="disposition"
      data-disposition={draft.disposition}
      data-bin={draft.bin ?? ''}
      data-put={draft.put_confirmed ? 'yes' : 'no'}
      style={{ backgroundColor: style.color, color: readableOn(style.color) }}
    >
      <strong className="disposition-name">{style.label}</strong>
      {draft.bin !== null && <span className="disposition-bin mono">→ {draft.bin}</span>}
      <span className="disposition-put">{draft.bin === null ? '' : draft.put_confirmed ? '✓ put' : 'scan bin'}</span>
      {draft.disposition_source === 'override' && <small className="disposition-override">override</small>}
    </p>
  );
}

/** A short disposition for a table cell: its name and bin, in its colour. */
export function DispositionChip({ draft }: { draft: Draft }) {
  const styles = useDispositionRules((s) => s.styles);
  if (draft.disposition === null) return null;
  const style = styles[draft.disposition];
  return (
    <span className="disposition-chip" data-testid="disposition-chip" style={{ borderColor: style.color }}>
      {style.label}
      {/* Its bin: left to the selected unit's banner where the table is narrow (styles.css). */}
      {draft.bin !== null && <span className="chip-bin">{` · ${draft.bin}${draft.put_confirmed ? ' ✓' : ''}`}</span>}
    </span>
  );
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance): a station may pick any colour. */
export function readableOn(hex: string): '#000' | '#fff' {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  // Contrast with black (l + 0.05) / 0.05 against with white 1.05 / (l + 0.05).
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000' : '#fff';
}
