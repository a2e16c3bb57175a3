import { useEffect, useRef, type FormEvent } from 'react';
import { focusScan } from '../scan/scan-field.ts';
import { useNav } from '../state/nav-store.ts';
import { DispositionStylesForm } from './DispositionStylesForm.tsx';
import { FieldError } from './FieldError.tsx';
import { useRulesEditor } from './page-rules-editor.ts';
import { moveRule, newRule, TABLE_FIELD } from './rules-draft.ts';
import { RuleRow } from './RuleRow.tsx';
import { SiteManagedNote } from '../settings/SiteManagedNote.tsx';
import { useSiteManaged } from '../settings/site-managed.ts';
import { OwnRulesBeforeJoin } from './OwnRulesBeforeJoin.tsx';
import './rules.css';

/** Back to the dock (Cancel, or Esc anywhere on the screen); with changes not saved, only on the second try. */
export function leaveRules(): void {
  useNav.getState().go('scan');
  if (useNav.getState().screen === 'scan') focusScan();
}

/**
 * The station's disposition rules, for a supervisor: the ordered table (first match wins), the
 * dispositions' names and colours, saved together; a refusal shows beside each field it names and
 * in a summary, and nothing typed is lost. docs/operator-guide.md, Dispositions.
 */
export function RulesScreen() {
  const { draft, loadError, refusals, saving, saved, leaveWarned, edit, save, load } = useRulesEditor();
  const form = useRef<HTMLFormElement>(null);
  // On a site's member the rules are the hub's: shown, not edited (the station refuses a change anyway).
  const managed = useSiteManaged((s) => s.managed);
  const loaded = draft !== null;
  useEffect(() => {
    void useRulesEditor.getState().load();
    // Any way out (Esc, Cancel, Alt+letter, the header) asks first while changes are not saved.
    useNav.getState().guardLeaving(() => useRulesEditor.getState().mayLeave());
    return () => useNav.getState().guardLeaving(null);
  }, []);
  // Once the rules are on screen the keyboard is theirs: the first rule's first field.
  useEffect(() => {
    if (loaded) setTimeout(() => form.current?.querySelector<HTMLElement>('tbody input')?.focus(), 0);
  }, [loaded]);
  // The actions sit above the table (in view at a dock's size however long it is): a rule added at
  // its end is brought into view with the keyboard in its name.
  const addRule = () => {
    edit((d) => ({ ...d, rules: [...d.rules, newRule()] }));
    setTimeout(() => [...(form.current?.querySelectorAll('tbody tr[data-rule]') ?? [])].at(-1)?.querySelector<HTMLElement>('input')?.focus(), 0);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  return (
    <form ref={form} className="rules-screen" aria-label="Disposition rules" data-testid="rules-screen" onSubmit={submit} noValidate>
      <div className="rules-bar">
        <h2>Disposition rules</h2>
        <span className="rules-hint">First match wins; a blank or unticked condition is any.</span>
        {!managed && (
          <>
            <button type="button" className="btn btn-small" data-testid="rules-add" disabled={!draft} onClick={addRule}>
              Add a rule
            </button>
            <button type="submit" className="btn btn-small" data-testid="rules-save" disabled={!draft || saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
          </>
        )}
        <button type="button" className="btn btn-small" data-testid="rules-cancel" onClick={leaveRules}>
          {managed ? 'Back (Esc)' : 'Cancel (Esc)'}
        </button>
      </div>
      <SiteManagedNote what="the disposition rules and bins" />
      {loadError && (
        <p role="alert" className="rules-error">
          {loadError}{' '}
          <button type="button" className="btn btn-small" onClick={() => void load()}>
            Try again
          </button>
        </p>
      )}
      {refusals.summary.length > 0 && (
        <div role="alert" className="rules-summary" data-testid="rules-refusals" tabIndex={0}>
          <strong>Not saved:</strong>
          <ul>
            {refusals.summary.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {leaveWarned && (
        <p role="alert" className="rules-error" data-testid="rules-unsaved">
          The changes are not saved. Esc (or Cancel) again leaves without them; Save keeps them.
        </p>
      )}
      {saved && (
        <p role="status" data-testid="rules-saved">
          {saved}
        </p>
      )}
      {draft && (
        <fieldset className="rules-fields" disabled={managed !== null}>
          <div className="rules-table-box">
            <table className="rules-table" data-testid="rules-table">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Name</th>
                  <th scope="col">Condition</th>
                  <th scope="col">Defective</th>
                  <th scope="col">Reason contains</th>
                  <th scope="col">SKU prefix</th>
                  <th scope="col">Package status</th>
                  <th scope="col">→ Disposition</th>
                  <th scope="col">Bin</th>
                  <th scope="col">
                    <span className="sr-only">Order and delete</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {draft.rules.map((rule, index) => (
                  <RuleRow
                    key={rule.key}
                    rule={rule}
                    index={index}
                    count={draft.rules.length}
                    styles={draft.dispositions}
                    errors={refusals.fields}
                    change={(next) => edit((d) => ({ ...d, rules: d.rules.map((r) => (r.key === next.key ? next : r)) }))}
                    move={(by) =>
                      edit((d) =>
                        moveRule(
                          d,
                          d.rules.findIndex((r) => r.key === rule.key),
                          by,
                        ),
                      )
                    }
                    remove={() => edit((d) => ({ ...d, rules: d.rules.filter((r) => r.key !== rule.key) }))}
                  />
                ))}
              </tbody>
            </table>
            <FieldError id="err-rules" message={refusals.fields.get(TABLE_FIELD)} />
          </div>
          <DispositionStylesForm styles={draft.dispositions} errors={refusals.fields} change={(dispositions) => edit((d) => ({ ...d, dispositions }))} />
        </fieldset>
      )}
      {managed?.own_rules_before_join && <OwnRulesBeforeJoin rules={managed.own_rules_before_join} />}
    </form>
  );
}
