import { create } from 'zustand';
import { type CurrencyCode, ISO_4217_CURRENCIES } from '#shared/api/currencies.ts';
import { DEFAULT_SUFFIX, keyNameProblem, type ScannerFraming } from '../scan/scanner-framing.ts';
import { readSetting, writeSetting } from './settings.ts';

/*
 * The station's own settings (kept with the station's other settings in this terminal's storage):
 * how its scanner marks a scan, the currency of new manual returns when their account has none yet, and whether receiving with
 * conditions not set asks to confirm.
 */

/** Receiving with items whose condition is not set: `confirm` asks for a second F2 (or Receive scan); `allow` receives at once. */
export type UnsetConditionPolicy = 'confirm' | 'allow';

interface StationSettingsState {
  /** The scanner's prefix and suffix keys; null: scans are told apart from typing by their speed. */
  framing: ScannerFraming | null;
  /** New manual returns default to their account's currency, else this one, else USD. */
  currency: CurrencyCode | null;
  setCurrency(currency: CurrencyCode | null): void;
  unsetConditions: UnsetConditionPolicy;
  setUnsetConditions(policy: UnsetConditionPolicy): void;
  /** Sets (or with an empty prefix, clears) the scanner framing; returns why not, or null. */
  setFraming(prefix: string, suffix: string): string | null;
}

function storedFraming(): ScannerFraming | null {
  const prefix = readSetting('scanner.prefix');
  if (!prefix || keyNameProblem(prefix)) return null;
  const suffix = readSetting('scanner.suffix', DEFAULT_SUFFIX) ?? DEFAULT_SUFFIX;
  return { prefix, suffix: keyNameProblem(suffix) ? DEFAULT_SUFFIX : suffix };
}

function storedCurrency(): CurrencyCode | null {
  const code = readSetting('currency');
  return (ISO_4217_CURRENCIES as readonly string[]).includes(code ?? '') ? (code as CurrencyCode) : null;
}

export const useStationSettings = create<StationSettingsState>()((set) => ({
  framing: storedFraming(),
  currency: storedCurrency(),
  unsetConditions: readSetting('receive.unset-conditions') === 'allow' ? 'allow' : 'confirm',
  setUnsetConditions(policy) {
    writeSetting('receive.unset-conditions', policy);
    set({ unsetConditions: policy });
  },
  setCurrency(currency) {
    writeSetting('currency', currency);
    set({ currency });
  },
  setFraming(prefix, suffix) {
    const p = prefix.trim();
    const s = suffix.trim() || DEFAULT_SUFFIX;
    if (p === '') {
      writeSetting('scanner.prefix', null);
      writeSetting('scanner.suffix', null);
      set({ framing: null });
      return null;
    }
    const problem = keyNameProblem(p) ?? keyNameProblem(s);
    if (problem) return problem;
    if (p === s) return 'The prefix and the suffix must be different keys.';
    writeSetting('scanner.prefix', p);
    writeSetting('scanner.suffix', s);
    set({ framing: { prefix: p, suffix: s } });
    return null;
  },
}));
