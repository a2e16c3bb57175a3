import { useEffect, useState } from 'react';
import { describeError } from '../api/describe-error.ts';
import { heldPicks, useHeldKey } from '../scan/held-key.ts';
import { notify } from '../state/feedback-store.ts';
import { useSession } from './session-store.ts';

/** Start of a shift: scan a badge (any time) or pick a name; number keys pick the first nine. */
export function SignInScreen() {
  const operators = useSession((s) => s.operators);
  const loadOperators = useSession((s) => s.loadOperators);
  const signIn = useSession((s) => s.signIn);
  const held = useHeldKey((s) => s.char);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    loadOperators().catch((e: unknown) => setError(describeError(e)));
  }, [loadOperators]);

  return (
    <section className="panel" aria-labelledby="sign-in-title">
      <h2 id="sign-in-title">Who is receiving?</h2>
      <p className="hint">Scan your badge, or pick your name (number keys 1–9).</p>
      {error && <p className="inline-error">{error}</p>}
      {operators.length === 0 && !error && <p className="hint">No operators yet — add them with <code>returns-station operator add --name …</code>.</p>}
      <ul className="choice-list">
        {operators.map((operator, i) => (
          <li key={operator.id}>
            <button
              type="button"
              className="btn btn-choice"
              data-held={heldPicks(held, i) ? '' : undefined}
              onClick={() => {
                signIn(operator);
                notify('success', `Signed in: ${operator.name}`);
              }}
            >
              {i < 9 && <kbd>{i + 1}</kbd>} {operator.name}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
