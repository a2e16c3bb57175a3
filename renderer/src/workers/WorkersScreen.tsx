import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { Operator, OperatorRole } from '#shared/api/station.ts';
import { describeError } from '../api/describe-error.ts';
import { pageClient } from '../api/station-api.ts';
import { useSession } from '../session/session-store.ts';
import { useSupervisorSession } from '../session/supervisor-session.ts';
import { notify } from '../state/feedback-store.ts';
import { SiteManagedNote } from '../settings/SiteManagedNote.tsx';
import { useSiteManaged } from '../settings/site-managed.ts';
import './workers.css';

/** The form's fields as typed; `editing` is the worker changed, or null to add one. */
interface Draft {
  editing: number | null;
  name: string;
  badge: string;
  key: string;
  role: OperatorRole;
  pin: string;
}

const EMPTY: Draft = { editing: null, name: '', badge: '', key: '', role: 'worker', pin: '' };

function draftOf(operator: Operator): Draft {
  return {
    editing: operator.id,
    name: operator.name,
    badge: operator.badge_code ?? '',
    key: operator.sign_in_key === null ? '' : String(operator.sign_in_key),
    role: operator.role,
    pin: '',
  };
}

async function allOperators(): Promise<Operator[]> {
  const all: Operator[] = [];
  for (let page = 1; ; page++) {
    const answer = await pageClient.listOperators({ page, per_page: 250 });
    all.push(...answer.data);
    if (page >= answer.meta.total_pages) return all;
  }
}

/**
 * The station's workers (Settings → Workers, Alt+W): add one with a badge and the number key that
 * signs them in, change them, reset a supervisor's PIN, deactivate. Every change needs a supervisor;
 * the station enforces it. Deactivated workers stay listed (their receipts keep naming them).
 */
export function WorkersScreen() {
  const supervisor = useSupervisorSession((s) => s.session);
  // On a site's member the workers are the hub's: listed, not changed here.
  const managed = useSiteManaged((s) => s.managed !== null);
  const [workers, setWorkers] = useState<Operator[]>([]);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setWorkers(await allOperators());
      await useSession.getState().loadOperators();
    } catch (e) {
      setError(describeError(e));
    }
  }, []);
  useEffect(() => {
    allOperators().then(setWorkers, (e: unknown) => setError(describeError(e)));
  }, []);

  const edit = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const key = draft.key === '' ? null : Number(draft.key);
    const badge = draft.badge.trim() === '' ? null : draft.badge.trim();
    const pin = draft.pin === '' ? undefined : draft.pin;
    setBusy(true);
    try {
      if (draft.editing === null) {
        const made = await pageClient.createOperator({
          name: draft.name.trim(),
          badge_code: badge,
          sign_in_key: key,
          role: draft.role,
          ...(pin === undefined ? {} : { pin }),
        });
        notify('success', `Added ${made.name}${made.sign_in_key === null ? '' : ` (key ${made.sign_in_key})`}.`);
      } else {
        const changed = await pageClient.updateOperator(draft.editing, {
          name: draft.name.trim(),
          badge_code: badge,
          sign_in_key: key,
          role: draft.role,
          ...(pin === undefined ? {} : { pin }),
        });
        notify('success', `Saved ${changed.name}${pin === undefined ? '' : ': new PIN set'}.`);
      }
      setDraft(EMPTY);
      setError(null);
      await reload();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };
  const setActive = async (worker: Operator, active: boolean) => {
    try {
      await pageClient.updateOperator(worker.id, { active });
      notify('success', `${worker.name} ${active ? 'can sign in again' : 'is deactivated'}.`);
      setError(null);
      await reload();
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <section className="panel workers-screen" aria-labelledby="workers-title" data-testid="workers-screen">
      <h2 id="workers-title">Workers</h2>
      <SiteManagedNote what="workers, badges and PINs" />
      <p className="hint">
        {managed ? '' : supervisor ? `Changes are made as ${supervisor.operator.name}. ` : 'Changes need a supervisor: sign in with Alt+U. '}Esc goes back.
      </p>
      {error && (
        <p className="inline-error" role="alert" data-testid="workers-error">
          {error}
        </p>
      )}
      {!managed && (
        <form
          className="workers-form"
          onSubmit={(e) => void save(e)}
          aria-label={draft.editing === null ? 'Add a worker' : 'Change a worker'}
          data-testid="worker-form"
        >
          <label>
            Name <input data-testid="worker-name" value={draft.name} onChange={(e) => edit({ name: e.target.value })} maxLength={255} required />
          </label>
          <label>
            Badge <input data-testid="worker-badge" value={draft.badge} onChange={(e) => edit({ badge: e.target.value })} maxLength={64} autoComplete="off" />
          </label>
          {/* A text field, not a list: a digit pressed on a list would be the dock's shortcut, not the key. */}
          <label>
            Sign-in key (1–9){' '}
            <input
              data-testid="worker-key"
              className="worker-key"
              value={draft.key}
              onChange={(e) => edit({ key: e.target.value.replace(/[^1-9]/g, '').slice(-1) })}
              inputMode="numeric"
              maxLength={1}
              size={2}
              autoComplete="off"
              placeholder="none"
            />
          </label>
          <label>
            Role{' '}
            <select data-testid="worker-role" value={draft.role} onChange={(e) => edit({ role: e.target.value === 'supervisor' ? 'supervisor' : 'worker' })}>
              <option value="worker">worker</option>
              <option value="supervisor">supervisor</option>
            </select>
          </label>
          <label>
            {draft.editing === null ? 'PIN' : 'New PIN'}{' '}
            <input
              data-testid="worker-pin"
              type="password"
              inputMode="numeric"
              value={draft.pin}
              onChange={(e) => edit({ pin: e.target.value })}
              maxLength={8}
              autoComplete="new-password"
              placeholder={draft.role === 'supervisor' ? '4–8 digits' : 'optional'}
            />
          </label>
          <button type="submit" className="btn btn-small" data-testid="worker-save" disabled={busy}>
            {draft.editing === null ? 'Add worker' : 'Save worker'}
          </button>
          {draft.editing !== null && (
            <button type="button" className="btn btn-small" onClick={() => setDraft(EMPTY)}>
              Cancel
            </button>
          )}
        </form>
      )}
      <table className="workers-table" data-testid="workers-table">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Name</th>
            <th scope="col">Badge</th>
            <th scope="col">Role</th>
            <th scope="col">State</th>
            {!managed && <th scope="col">Change</th>}
          </tr>
        </thead>
        <tbody>
          {workers.map((w) => (
            <tr key={w.id} data-testid="worker-row" className={w.active ? '' : 'worker-inactive'}>
              <td>{w.sign_in_key ?? '—'}</td>
              <td>{w.name}</td>
              <td>{w.badge_code ?? '—'}</td>
              <td>{w.role === 'supervisor' ? `supervisor${w.has_pin ? '' : ' (no PIN)'}` : 'worker'}</td>
              <td>{w.active ? 'active' : 'deactivated'}</td>
              {!managed && (
                <td>
                  <button type="button" className="btn btn-small" aria-label={`Change ${w.name}`} onClick={() => setDraft(draftOf(w))}>
                    Change
                  </button>{' '}
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`${w.active ? 'Deactivate' : 'Activate'} ${w.name}`}
                    onClick={() => void setActive(w, !w.active)}
                  >
                    {w.active ? 'Deactivate' : 'Activate'}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
