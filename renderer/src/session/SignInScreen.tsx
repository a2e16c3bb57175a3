import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Operator } from '#shared/api/station.ts';
import { StationUnreachableError } from '#shared/api/client.ts';
import { describeError } from '../api/describe-error.ts';
import { notify } from '../state/feedback-store.ts';
import { useNav } from '../state/nav-store.ts';
import { useStationLink } from '../state/station-link.ts';
import { useSession } from './session-store.ts';
import { BadgePinFields, pinProblem } from './BadgePinFields.tsx';
import { useSupervisorSession } from './supervisor-session.ts';
import './session.css';

/** Offline with no list of workers (a page opened from its copy), nobody can sign in: only the station knows the badges. A worker signed in before stays signed in. */
const SIGN_IN_OFFLINE =
  'The station cannot be reached: a badge is checked by the station, so signing in waits until it answers. Work held on this device is kept and sent then.';

/** The number key shown beside a worker: their own, or on a station where nobody has one, the list's first nine. */
function keyOf(operators: Operator[], operator: Operator, i: number): number | null {
  if (operators.some((o) => o.sign_in_key !== null)) return operator.sign_in_key;
  return i < 9 ? i + 1 : null;
}

/**
 * Start of a shift: scan a badge (any time) or pick a name by its number key. A station without a
 * supervisor asks for its first one here: the first start needs nothing but this screen.
 */
export function SignInScreen() {
  const operators = useSession((s) => s.operators);
  const loadOperators = useSession((s) => s.loadOperators);
  const signIn = useSession((s) => s.signIn);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);

  // Loaded again when the station answers after being away (a page opened offline from its copy).
  const online = useStationLink((s) => s.link === 'online');
  useEffect(() => {
    loadOperators()
      .then(() => {
        setLoaded(true);
        setError(null);
      })
      .catch((e: unknown) =>
        setError(e instanceof StationUnreachableError && useSession.getState().operators.length === 0 ? SIGN_IN_OFFLINE : describeError(e)),
      );
  }, [loadOperators, online]);

  // A terminal is not given supervisors' badges (they sign in by badge and PIN): their role and PIN say enough.
  const noSupervisor = loaded && !operators.some((o) => o.role === 'supervisor' && o.has_pin);
  return (
    <section className="panel" aria-labelledby="sign-in-title">
      {noSupervisor && <FirstSupervisor hasWorkers={operators.length > 0} />}
      {operators.length > 0 && (
        <>
          <h2 id="sign-in-title">Who is receiving?</h2>
          <p className="hint">Scan your badge, or press your number key.</p>
        </>
      )}
      {error && <p className="inline-error">{error}</p>}
      <ul className="choice-list">
        {operators.map((operator, i) => {
          const key = keyOf(operators, operator, i);
          return (
            <li key={operator.id}>
              <button
                type="button"
                className="btn btn-choice"
                onClick={() => {
                  signIn(operator);
                  notify('success', `Signed in: ${operator.name}`);
                }}
              >
                {key !== null && <kbd>{key}</kbd>} {operator.name}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The station's first supervisor: name, badge and PIN (twice); then they are signed in and add the workers. */
function FirstSupervisor({ hasWorkers }: { hasWorkers: boolean }) {
  const setUpFirst = useSupervisorSession((s) => s.setUpFirst);
  const [name, setName] = useState('');
  const [badge, setBadge] = useState('');
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A new station has nobody to scan in: its first person starts at the name, not in the scan field.
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!hasWorkers) nameField.current?.focus();
  }, [hasWorkers]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '' || badge.trim() === '') return setError('Give the supervisor’s name and badge.');
    const problem = pinProblem(pin);
    if (problem) return setError(problem);
    if (pin !== again) return setError('The two PINs differ: type the same PIN twice.');
    setBusy(true);
    const refused = await setUpFirst({ name: name.trim(), badge_code: badge.trim(), pin });
    setBusy(false);
    if (refused) return setError(refused);
    const session = useSupervisorSession.getState().session;
    await useSession.getState().loadOperators();
    if (session) useSession.getState().signIn(session.operator);
    notify('success', `${name.trim()} is the station's supervisor and signed in: add the workers now.`);
    useNav.getState().go('workers');
  };
  return (
    <form className="first-supervisor" onSubmit={(e) => void submit(e)} aria-labelledby="first-supervisor-title" data-testid="first-supervisor">
      <h2 id="first-supervisor-title">{hasWorkers ? 'This station has no supervisor yet' : 'Welcome: set up this station’s supervisor'}</h2>
      <p className="hint">
        The supervisor adds the workers and alone changes settings, rules, printers and the upstream. They sign in with their badge and a PIN.
      </p>
      <label className="badge-pin-field">
        Name <input ref={nameField} data-testid="first-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={255} />
      </label>
      <BadgePinFields
        badgeTestId="first-badge"
        pinTestId="first-pin"
        againTestId="first-pin-again"
        badge={[badge, setBadge]}
        pin={[pin, setPin]}
        again={[again, setAgain]}
      />
      {error && (
        <p className="inline-error" role="alert" data-testid="first-supervisor-error">
          {error}
        </p>
      )}
      <button type="submit" className="btn" data-testid="first-supervisor-save" disabled={busy}>
        Set up the supervisor
      </button>
    </form>
  );
}
