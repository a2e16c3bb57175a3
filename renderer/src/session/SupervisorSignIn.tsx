import { useRef, useState, type FormEvent } from 'react';
import { BadgePinFields, pinProblem } from './BadgePinFields.tsx';
import { useSupervisorSession } from './supervisor-session.ts';
import './session.css';

/** The way to sign in as a supervisor (in the settings; Alt+U anywhere). */
export function SupervisorSignInButton() {
  const session = useSupervisorSession((s) => s.session);
  const ask = useSupervisorSession((s) => s.ask);
  if (session) return null;
  return (
    <p>
      <button type="button" className="btn btn-small" data-testid="supervisor-sign-in" onClick={() => ask()}>
        Supervisor sign-in <kbd>Alt+U</kbd>
      </button>{' '}
      — settings, rules, printers, the upstream and the workers change only for a supervisor (badge and PIN).
    </p>
  );
}

/** In the header while a supervisor is signed in on this screen (nothing otherwise: the dock's header stays short). */
export function SupervisorState() {
  const session = useSupervisorSession((s) => s.session);
  const signOut = useSupervisorSession((s) => s.signOut);
  if (!session) return null;
  const until = new Date(session.expires_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return (
    <span className="supervisor-state" data-testid="supervisor-state">
      {/* Narrow, the role goes above the name and the time into the title: the name reads whole. */}
      <span className="supervisor-who" title={`Supervisor: ${session.operator.name} (until ${until})`}>
        <span className="supervisor-role">Supervisor:</span> <strong className="supervisor-name">{session.operator.name}</strong>
        <span className="supervisor-until"> (until {until})</span>
      </span>{' '}
      <button type="button" className="btn btn-small" data-testid="supervisor-sign-out" aria-label="End supervisor" onClick={() => void signOut()}>
        End<span className="supervisor-word"> supervisor</span>
      </button>
    </span>
  );
}

/**
 * A supervisor's badge and PIN, asked for by Alt+U, the header's button, or a change the station
 * refused to a terminal. The badge may be scanned into its field. Esc cancels.
 */
export function SupervisorDialog() {
  const asking = useSupervisorSession((s) => s.asking);
  if (!asking) return null;
  return <SignInForm reason={asking.reason} scanned={asking.badge} />;
}

function SignInForm({ reason, scanned }: { reason: string | null; scanned: string | null }) {
  const signIn = useSupervisorSession((s) => s.signIn);
  const cancel = useSupervisorSession((s) => s.cancel);
  const [badge, setBadge] = useState(scanned ?? '');
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pinField = useRef<HTMLInputElement>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (badge.trim() === '') return setError('Scan or type the supervisor’s badge.');
    const problem = pinProblem(pin);
    if (problem) {
      pinField.current?.focus();
      return setError(problem);
    }
    setBusy(true);
    const refused = await signIn(badge.trim(), pin);
    setBusy(false);
    if (refused) {
      setPin('');
      setError(refused);
      pinField.current?.focus();
    }
  };
  return (
    <div className="supervisor-dialog" role="dialog" aria-modal="true" aria-labelledby="supervisor-dialog-title" data-testid="supervisor-dialog">
      <form onSubmit={(e) => void submit(e)} className="panel">
        <h2 id="supervisor-dialog-title">Supervisor sign-in</h2>
        <p className="hint">{reason ?? 'Settings, rules, printers, tokens, the upstream and the workers need a supervisor.'} Esc cancels.</p>
        <BadgePinFields
          badgeTestId="supervisor-badge"
          pinTestId="supervisor-pin"
          badge={[badge, setBadge]}
          pin={[pin, setPin]}
          pinRef={pinField}
          autoFocus={scanned === null ? 'badge' : 'pin'}
        />
        {error && (
          <p className="inline-error" role="alert" data-testid="supervisor-error">
            {error}
          </p>
        )}
        <button type="submit" className="btn btn-small" data-testid="supervisor-submit" disabled={busy}>
          Sign in
        </button>{' '}
        <button type="button" className="btn btn-small" onClick={cancel}>
          Cancel
        </button>
      </form>
    </div>
  );
}
