import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { DispositionRules } from '#shared/api/disposition-rules.ts';
import { describeError } from '../api/describe-error.ts';
import { bodyOf, draftOf, NO_REFUSALS, refusalsOf, type Draft, type Refusals } from './rules-draft.ts';

/*
 * The rules screen's state: the draft read from the station, edited, saved with a PUT. A refused save
 * keeps the draft as typed and puts each refusal beside its field; a saved one is handed to `adopt`
 * (the dock's copy of the rules) and becomes the new draft. Leaving with changes not saved is asked
 * about once (`mayLeave`): the second try leaves, and the next visit reads the station's rules again.
 */

export interface RulesEditorState {
  draft: Draft | null;
  /** Why the rules could not be read (the draft stays null). */
  loadError: string | null;
  refusals: Refusals;
  saving: boolean;
  /** Said after a save went through. */
  saved: string | null;
  /** The rules as last read or saved (the body a save would send), to tell unsaved changes. */
  pristine: string | null;
  /** A try to leave with unsaved changes was refused once: the next one leaves. */
  leaveWarned: boolean;
  load(): Promise<void>;
  edit(change: (draft: Draft) => Draft): void;
  /** Sends the draft; true when the station took it. */
  save(): Promise<boolean>;
  /** Whether the screen may be left now: false (once) while changes are not saved. */
  mayLeave(): boolean;
}

const bodyText = (draft: Draft): string => JSON.stringify(bodyOf(draft));

export type RulesEditorStore = UseBoundStore<StoreApi<RulesEditorState>>;
export type RulesEditorClient = Pick<ApiClient, 'dispositionRules' | 'updateDispositionRules'>;

export function createRulesEditor(client: RulesEditorClient, adopt: (table: DispositionRules) => void): RulesEditorStore {
  return create<RulesEditorState>()((set, get) => ({
    draft: null,
    loadError: null,
    refusals: NO_REFUSALS,
    saving: false,
    saved: null,
    pristine: null,
    leaveWarned: false,
    async load() {
      set({ loadError: null });
      try {
        const table = await client.dispositionRules();
        adopt(table);
        set({ draft: draftOf(table), refusals: NO_REFUSALS, saved: null, pristine: bodyText(draftOf(table)), leaveWarned: false });
      } catch (error) {
        set({ loadError: describeError(error) });
      }
    },
    edit(change) {
      const draft = get().draft;
      if (draft) set({ draft: change(draft), saved: null, leaveWarned: false });
    },
    async save() {
      const draft = get().draft;
      if (!draft || get().saving) return false;
      set({ saving: true, saved: null });
      try {
        const table = await client.updateDispositionRules(bodyOf(draft));
        adopt(table);
        // Only when nothing was typed while the save was under way: else the typing stays.
        if (get().draft === draft) set({ draft: draftOf(table) });
        set({
          pristine: bodyText(draftOf(table)),
          refusals: NO_REFUSALS,
          saved: `Saved: ${table.rules.length} rule${table.rules.length === 1 ? '' : 's'}. The dock uses them for items inspected from now on.`,
        });
        return true;
      } catch (error) {
        set({ refusals: refusalsOf(error, draft) });
        return false;
      } finally {
        set({ saving: false });
      }
    },
    mayLeave() {
      const { draft, pristine, leaveWarned } = get();
      if (draft === null || bodyText(draft) === pristine || leaveWarned) {
        set({ leaveWarned: false });
        return true;
      }
      set({ leaveWarned: true });
      return false;
    },
  }));
}
