import { useEffect, useState } from 'react';
import { COMMAND_BARCODES } from './command-barcodes.ts';

/**
 * The command barcodes, ready to print (a sheet beside the scanner): scanning one does what its key
 * does. Rendered as Code 128 SVG by bwip-js, loaded only here (it is large) and bundled with the UI,
 * so the station serves it offline and needs no server-side renderer.
 */
export function CommandsScreen() {
  const [svgs, setSvgs] = useState<Record<string, string> | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    import('bwip-js/browser')
      .then(({ default: bwipjs }) => {
        const rendered = Object.fromEntries(
          COMMAND_BARCODES.map((c) => [
            c.code,
            bwipjs.toSVG({ bcid: 'code128', text: c.code, scale: 3, height: 14, includetext: false, paddingwidth: 10, paddingheight: 6 }),
          ]),
        );
        if (live) setSvgs(rendered);
      })
      .catch(() => {
        if (live) setError('The barcodes could not be drawn. Reload the page.');
      });
    return () => {
      live = false;
    };
  }, []);

  return (
    <section className="commands-sheet" aria-label="Command barcodes" data-testid="command-sheet">
      <div className="commands-head">
        <h2>Command barcodes</h2>
        <p>Print this page and keep it by the scanner: scanning a code does what its key does, so a scanner alone is enough.</p>
        <button type="button" className="btn btn-small" onClick={() => window.print()}>
          Print
        </button>
      </div>
      {error && <p role="alert">{error}</p>}
      <ul className="commands-grid">
        {COMMAND_BARCODES.map((c) => (
          <li key={c.code} className="command-card" data-testid="command-barcode" data-code={c.code}>
            <strong>{c.label}</strong>
            {c.key && <kbd>{c.key}</kbd>}
            {/* bwip-js's own SVG text, from our fixed codes: nothing a user typed. */}
            {svgs?.[c.code] && <div className="command-svg" dangerouslySetInnerHTML={{ __html: svgs[c.code] ?? '' }} />}
            <code>{c.code}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
