import { create } from 'zustand';
import type { DispositionRules } from '#shared/api/disposition-rules.ts';
import { DEFAULT_DISPOSITION_RULES, DEFAULT_DISPOSITION_STYLES, type DispositionRuleLike, type DispositionStyles } from '#shared/dispositions.ts';
import { pageClient } from '../api/station-api.ts';
import { readSetting, writeSetting } from './settings.ts';

/*
 * The station's disposition rules as this terminal knows them: the last answer of
 * `GET /api/v1/station/disposition-rules`, kept in the terminal's settings so an offline start shows
 * the same dispositions; the station's defaults until it first answered. Read again when a package
 * opens, at most every half minute.
 */

const REFRESH_MS = 30_000;
const SETTING = 'disposition-rules';

interface DispositionRulesState {
  rules: readonly DispositionRuleLike[];
  styles: DispositionStyles;
  loadedAt: number;
  /** Reads the rules from the station when the last read is older than half a minute; never throws. */
  refresh(force?: boolean): Promise<void>;
  adopt(table: Pick<DispositionRules, 'rules' | 'dispositions'>): void;
}

function stored(): Pick<DispositionRules, 'rules' | 'dispositions'> | null {
  try {
    const text = readSetting(SETTING, '');
    return text ? (JSON.parse(text) as Pick<DispositionRules, 'rules' | 'dispositions'>) : null;
  } catch {
    return null;
  }
}

const initial = stored();

export const useDispositionRules = create<DispositionRulesState>()((set, get) => ({
  rules: initial?.rules ?? DEFAULT_DISPOSITION_RULES,
  styles: initial?.dispositions ?? DEFAULT_DISPOSITION_STYLES,
  loadedAt: 0,
  async refresh(force = false) {
    if (!force && Date.now() - get().loadedAt < REFRESH_MS) return;
    set({ loadedAt: Date.now() });
    try {
      get().adopt(await pageClient.dispositionRules());
    } catch {
      // Offline: the rules last seen (or the defaults) stay; the station applies its own anyway.
      set({ loadedAt: 0 });
    }
  },
  adopt(table) {
    writeSetting(SETTING, JSON.stringify({ rules: table.rules, dispositions: table.dispositions }));
    set({ rules: table.rules, styles: table.dispositions });
  },
}));
