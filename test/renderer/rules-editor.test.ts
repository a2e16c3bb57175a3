import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../shared/api/client.ts';
import type { DispositionRules } from '../../shared/api/disposition-rules.ts';
import { DEFAULT_DISPOSITION_STYLES } from '../../shared/dispositions.ts';
import { bodyOf, draftOf, moveRule, newRule, refusalsOf, ruleFieldId, styleFieldId, TABLE_FIELD, type Draft } from '../../renderer/src/rules/rules-draft.ts';
import { createRulesEditor } from '../../renderer/src/rules/rules-editor-store.ts';
import { startStation, type TestStation } from '../api/support.ts';
import { StationCable } from './station-cable.ts';

/*
 * The rules screen's draft against a real station: read, edited, saved as the station's rules (the
 * dock's copy adopts them); a refused save keeps every field as typed and puts each refusal beside its
 * field, following its rule when rules move.
 */

describe('the rules draft', () => {
  const table: Pick<DispositionRules, 'rules' | 'dispositions'> = {
    dispositions: DEFAULT_DISPOSITION_STYLES,
    rules: [
      {
        name: 'Recalls',
        condition: null,
        defective: null,
        reason_contains: 'recall',
        sku_prefix: null,
        package_status: null,
        disposition: 'quarantine',
        bin: 'Q-1',
      },
      {
        name: null,
        condition: ['new', 'like_new'],
        defective: false,
        reason_contains: null,
        sku_prefix: 'APL-',
        package_status: ['exception'],
        disposition: 'restock',
        bin: 'R',
      },
    ],
  };

  it('round-trips the station’s rules; blank texts and unticked sets are any (null)', () => {
    const draft = draftOf(table);
    expect(draft.rules[1]).toMatchObject({ name: '', condition: ['new', 'like_new'], defective: 'no', sku_prefix: 'APL-', package_status: ['exception'] });
    expect(bodyOf(draft)).toEqual({ dispositions: DEFAULT_DISPOSITION_STYLES, rules: table.rules });
    const blank = { ...newRule(), name: '  ', reason_contains: ' ', bin: ' B-2 ', defective: 'yes' as const };
    expect(bodyOf({ ...draft, rules: [blank] }).rules[0]).toEqual({
      name: null,
      condition: null,
      defective: true,
      reason_contains: null,
      sku_prefix: null,
      package_status: null,
      disposition: 'quarantine',
      bin: 'B-2',
    });
  });

  it('moves rules within the table only', () => {
    const draft = draftOf(table);
    const [a, b] = draft.rules;
    expect(moveRule(draft, 1, -1).rules).toEqual([b, a]);
    expect(moveRule(draft, 0, -1)).toBe(draft);
    expect(moveRule(draft, 1, 1)).toBe(draft);
  });

  it('says an error that is not a refusal in the summary alone', () => {
    const refusals = refusalsOf(new TypeError('boom'), draftOf(table));
    expect(refusals.fields.size).toBe(0);
    expect(refusals.summary).toEqual(['boom']);
  });
});

describe('editing the rules against a station', () => {
  let ts: TestStation;
  beforeAll(async () => {
    ts = await startStation();
  });
  afterAll(async () => {
    await ts.close();
  });

  async function loaded(cable = new StationCable(ts)) {
    const adopt = vi.fn();
    const editor = createRulesEditor(cable.client(), adopt);
    await editor.getState().load();
    return { editor, adopt, cable };
  }
  const draftOfEditor = (editor: Awaited<ReturnType<typeof loaded>>['editor']): Draft => editor.getState().draft as Draft;

  it('saves a changed bin, a new first rule and a colour: the station’s rules, adopted for the dock', async () => {
    const { editor, adopt } = await loaded();
    expect(draftOfEditor(editor).rules.length).toBeGreaterThan(0);
    editor.getState().edit((d) => ({ ...d, rules: d.rules.map((r, i) => (i === 0 ? { ...r, bin: 'A-12' } : r)) }));
    editor.getState().edit((d) => moveRule({ ...d, rules: [...d.rules, { ...newRule(), reason_contains: 'recall', bin: 'Q-RECALL' }] }, d.rules.length, -1));
    editor.getState().edit((d) => ({ ...d, dispositions: { ...d.dispositions, restock: { label: 'Back to stock', color: '#00ff00' } } }));
    const last = draftOfEditor(editor).rules.length - 2;
    for (let i = last; i > 0; i--) editor.getState().edit((d) => moveRule(d, i, -1));
    expect(await editor.getState().save()).toBe(true);
    expect(editor.getState().saved).toMatch(/^Saved: 6 rules/);
    const stored = await new ApiClient({ baseUrl: ts.origin, token: ts.stationToken }).dispositionRules();
    expect(stored.rules[0]).toMatchObject({ reason_contains: 'recall', bin: 'Q-RECALL', disposition: 'quarantine' });
    expect(stored.rules[1]?.bin).toBe('A-12');
    expect(stored.dispositions.restock).toEqual({ label: 'Back to stock', color: '#00ff00' });
    expect(adopt).toHaveBeenLastCalledWith(stored);
  });

  it('refused, puts each refusal beside its field (following its rule), keeps every field as typed and the station its rules', async () => {
    const { editor, adopt } = await loaded();
    const before = await new ApiClient({ baseUrl: ts.origin, token: ts.stationToken }).dispositionRules();
    editor.getState().edit((d) => ({
      dispositions: { ...d.dispositions, dispose: { label: 'Bin it', color: 'red' } },
      // An empty bin on rule 1, and a rule at the end the rules before it always catch.
      rules: [...d.rules.map((r, i) => (i === 0 ? { ...r, bin: '', name: 'typed' } : r)), { ...newRule(), bin: 'LATE' }],
    }));
    const typed = draftOfEditor(editor);
    adopt.mockClear();
    expect(await editor.getState().save()).toBe(false);
    const { fields, summary } = editor.getState().refusals;
    const [first] = typed.rules;
    const late = typed.rules.at(-1);
    expect(fields.get(ruleFieldId(first?.key ?? -1, 'bin'))).toBe('Give a bin code.');
    expect(fields.get(ruleFieldId(late?.key ?? -1))).toMatch(/never applies|never apply|catch/i);
    expect(fields.get(ruleFieldId(late?.key ?? -1))).not.toMatch(/rules\[/);
    expect(fields.get(styleFieldId('dispose', 'color'))).toMatch(/#rrggbb/);
    expect(summary).toContain('Rule 1, bin: Give a bin code.');
    expect(summary.some((s) => s.startsWith(`Rule ${typed.rules.length}: `))).toBe(true);
    expect(editor.getState().draft).toBe(typed);
    expect(adopt).not.toHaveBeenCalled();
    expect(await new ApiClient({ baseUrl: ts.origin, token: ts.stationToken }).dispositionRules()).toEqual(before);

    // Moving the refused rule keeps its refusal with it (keyed by the rule, not its place).
    editor.getState().edit((d) => moveRule(d, d.rules.length - 1, -1));
    expect(draftOfEditor(editor).rules.at(-2)?.key).toBe(late?.key);
  });

  it('refuses an empty table on the table, and fixed, saves', async () => {
    const { editor } = await loaded();
    const all = draftOfEditor(editor);
    editor.getState().edit((d) => ({ ...d, rules: [] }));
    expect(await editor.getState().save()).toBe(false);
    expect(editor.getState().refusals.fields.get(TABLE_FIELD)).toBe('Give at least one rule.');
    editor.getState().edit(() => all);
    expect(await editor.getState().save()).toBe(true);
    expect(editor.getState().refusals.summary).toEqual([]);
  });

  it('leaving with changes not saved is refused once, then allowed; saved or unchanged, at once', async () => {
    const { editor } = await loaded();
    expect(editor.getState().mayLeave()).toBe(true);
    editor.getState().edit((d) => ({ ...d, rules: d.rules.map((r, i) => (i === 0 ? { ...r, bin: 'CHANGED' } : r)) }));
    expect(editor.getState().mayLeave()).toBe(false);
    expect(editor.getState().leaveWarned).toBe(true);
    // Typing after the warning asks again.
    editor.getState().edit((d) => ({ ...d, rules: d.rules.map((r, i) => (i === 0 ? { ...r, bin: 'CHANGED-2' } : r)) }));
    expect(editor.getState().leaveWarned).toBe(false);
    expect(editor.getState().mayLeave()).toBe(false);
    expect(editor.getState().mayLeave()).toBe(true);
    // Changed back to what the station holds: nothing to lose.
    await editor.getState().load();
    editor.getState().edit((d) => ({ ...d, rules: d.rules.map((r, i) => (i === 0 ? { ...r, bin: ` ${r.bin} ` } : r)) }));
    expect(editor.getState().mayLeave()).toBe(true);
    editor.getState().edit((d) => ({ ...d, rules: d.rules.map((r, i) => (i === 0 ? { ...r, bin: 'SAVED-BIN' } : r)) }));
    expect(await editor.getState().save()).toBe(true);
    expect(editor.getState().mayLeave()).toBe(true);
  });

  it('unsent, says so and keeps the draft', async () => {
    const { editor, cable } = await loaded();
    const draft = draftOfEditor(editor);
    cable.down = true;
    expect(await editor.getState().save()).toBe(false);
    expect(editor.getState().refusals.summary).toEqual(['The station cannot be reached. Your work stays on screen; try again when it is back.']);
    expect(editor.getState().draft).toBe(draft);
    const unread = createRulesEditor(cable.client(), vi.fn());
    await unread.getState().load();
    expect(unread.getState()).toMatchObject({ draft: null, loadError: expect.stringMatching(/cannot be reached/) });
  });
});
