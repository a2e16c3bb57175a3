import { pageClient } from '../api/station-api.ts';
import { useDispositionRules } from '../state/disposition-rules.ts';
import { createRulesEditor } from './rules-editor-store.ts';

/** This page's rules screen: the page's client, and a save the dock shows at once. */
export const useRulesEditor = createRulesEditor(pageClient, (table) => useDispositionRules.getState().adopt(table));
