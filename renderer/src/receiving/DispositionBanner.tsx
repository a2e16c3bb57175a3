import type { Draft } from '../inspect/drafts.ts';
import { useDispositionRules } from '../state/disposition-rules.ts';

/*
 * Where the selected unit goes: its disposition, large and in the disposition's colour, its bin, and
 * whether the bin was scanned. Shown the moment its condition is set (the rules run on the screen).
 */

/** The disposition of the selected unit, or a hint while it has none. */
export function DispositionBanner({ draft }: { draft: Draft }) {
  const styles = useDispositionRules((s) => s.styles);
  if (draft.disposition === null) {
    return (
      <p className="disposition-banner disposition-none" data-testid="disposition" data-disposition="">
        No disposition yet: set the condition (1–6).
      </p>
    );
  }
  const style = styles[draft.disposition];
  return (
    <p className="disposition-banner" data-testid="disposition" data-disposition={draft.disposition} data-bin={draft.bin ?? ''} data-put={draft.put_confirmed ? 'yes' : 'no'} style={{ backgroundColor: style.color }}>
      <strong className="disposition-name">{style.label}</strong>
      {draft.bin !== null && <span className="disposition-bin mono">→ {draft.bin}</span>}
      <span className="disposition-put">{draft.bin === null ? '' : draft.put_confirmed ? '✓ put' : 'scan the bin'}</span>
      {draft.disposition_source === 'override' && <small className="disposition-override">overridden</small>}
      <kbd className="disposition-key">F10 override</kbd>
    </p>
  );
}

/** A short disposition for a table cell: its name and bin, in its colour. */
export function DispositionChip({ draft }: { draft: Draft }) {
  const styles = useDispositionRules((s) => s.styles);
  if (draft.disposition === null) return null;
  const style = styles[draft.disposition];
  return (
    <span className="disposition-chip" data-testid="disposition-chip" style={{ borderColor: style.color, color: style.color }}>
      {style.label}
      {draft.bin !== null ? ` · ${draft.bin}${draft.put_confirmed ? ' ✓' : ''}` : ''}
    </span>
  );
}
