import { useState } from 'react';
import type { EvidenceTarget } from './evidence-pack.ts';
import { evidencePackOf } from './page-evidence.ts';

/** A package's evidence pack from a list (the review list): saves its zip and shows its PDF; busy while it is made. */
export function EvidencePackButton({ target }: { target: EvidenceTarget }) {
  const [busy, setBusy] = useState(false);
  const make = () => {
    setBusy(true);
    void evidencePackOf(target).finally(() => setBusy(false));
  };
  return (
    <button type="button" className="btn btn-secondary" data-testid="evidence-pack" disabled={busy} onClick={make}>
      {busy ? 'Making the pack…' : 'Evidence pack'}
    </button>
  );
}
