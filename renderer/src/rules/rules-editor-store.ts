import { create, type StoreApi, type UseBoundStore } from 'zustand';
import type { ApiClient } from '#shared/api/client.ts';
import type { DispositionRules } from '#shared/api/disposition-rules.ts';
import { describeError } from '../api/describe-error.ts';
import { bodyOf, draftOf, NO_REFUSALS, refusalsOf, type Draft, type Refusals } from './rules-draft.ts';

/*
 * The rules screen's state: the draft read from the station, edited, saved with a PUT. A refused save
 * keeps the draft as typed and puts each refusal beside its field; a saved one is handed to `adopt`
 * (the dock's copy of the rules) and becomes the new draft.
 */

export interface RulesEditorState {
  draft: Draft | null;
  /** Why the rules could not be read (the draft stays null). */
  loadError: string | null;
  refusals: Refusals;
  saving: boolean;
  /** Said after a save went through. */
  saved: string | null;
  load(): Promise<void>;
  edit(change: (draft: Draft) => Draft): void;
  /** Sends the draft; true when the station took it. */
  save(): Promise<boolean>;
}

export type RulesEditorStore = UseBoundStore<StoreApi<RulesEditorState>>;
export type RulesEditorClient = Pick<ApiClient, 'dispositionRules' | 'updateDispositionRules'>;

export function createRulesEditor(client: RulesEditorClient, adopt: (table: DispositionRules) => void): RulesEditorStore {
  return create<RulesEditorState>()((set, get) => ({
    draft: null,
    loadError: null,
    refusals: NO_REFUSALS,
    saving: false,
    saved: null,
    async load() {
      set({ loadError: null });
      try {
        const table = await client.dispositionRules();
        adopt(table);
        set({ draft: draftOf(table), refusals: NO_REFUSALS, saved: null });
      } catch (error) {
        set({ loadError: describeError(error) });
      }
    },
    edit(change) {
      const draft = get().draft;
      if (draft) set({ draft: change(draft), saved: null });
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
        set({ refusals: NO_REFUSALS, saved: `Saved: ${table.rules.length} rule${table.rules.length === 1 ? '' : 's'}. The dock uses them for items inspected from now on.` });
        return true;
      } catch (error) {
        set({ refusals: refusalsOf(error, draft) });
        return false;
      } finally {
        set({ saving: false });
      }
    },
  }));
}
