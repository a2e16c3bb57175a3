import { focusScan } from '../scan/scan-field.ts';
import { usePdfView } from './pdf-view.ts';

/** The last label PDF asked for: a link to open (and print) it, over the work area's corner. */
export function PdfLink() {
  const url = usePdfView((s) => s.url);
  const title = usePdfView((s) => s.title);
  const opened = usePdfView((s) => s.opened);
  const close = usePdfView((s) => s.close);
  if (!url) return null;
  return (
    <aside className="pdf-link" aria-label="Label PDF" data-testid="pdf-link">
      <span>{opened ? `${title}: opened in a new tab — print it there (Ctrl+P).` : `${title} is ready:`}</span>{' '}
      <a href={url} target="_blank" rel="noopener" className="btn btn-small">
        Open PDF
      </a>{' '}
      <button
        type="button"
        className="btn btn-small"
        onClick={() => {
          close();
          focusScan();
        }}
      >
        Close
      </button>
    </aside>
  );
}
