import { create } from 'zustand';
import { ApiError } from '#shared/api/client.ts';
import type { CurrencyCode } from '#shared/api/currencies.ts';
import type { ScannerFraming, StationSettings, StationSettingsUpdateInput, UnsetConditionPolicy } from '#shared/api/station-settings.ts';
import { api } from '../api/station-api.ts';
import { describeError } from '../api/describe-error.ts';
import { readSetting, writeSetting } from './settings.ts';

/*
 * The station's settings as this terminal knows them: kept by the station (every terminal of it shares
 * them, and they survive a restart), read with the status this screen polls and from the answer to a
 * change. Until the station first answers, the defaults apply: scans told by speed, no currency,
 * confirm before receiving with conditions not set.
 */

export type { UnsetConditionPolicy };

interface StationSettingsState {
  /** The scanner's prefix and suffix keys; null: scans are told apart from typing by their speed. */
  framing: ScannerFraming | null;
  /** New manual returns default to their account's currency, else this one, else USD. */
  currency: CurrencyCode | null;
  unsetConditions: UnsetConditionPolicy;
  /** When the station's settings last changed, as last taken (null: never changed; undefined: not heard yet). */
  updatedAt: string | null | undefined;
  /** Takes the settings the station answered with. */
  adopt(settings: StationSettings): void;
  /** Changes settings on the station; returns why not (a sentence a person can act on), or null. */
  change(patch: StationSettingsUpdateInput): Promise<string | null>;
}

export const useStationSettings = create<StationSettingsState>()((set, get) => ({
  framing: null,
  currency: null,
  unsetConditions: 'confirm',
  updatedAt: undefined,
  adopt(settings) {
    // Every status poll brings them: only a change (or the first answer) is taken, so nothing re-renders for nothing.
    if (settings.updated_at === get().updatedAt) return;
    set({ framing: settings.scanner, currency: settings.currency, unsetConditions: settings.unset_conditions, updatedAt: settings.updated_at });
    if (settings.updated_at === null) void moveTerminalSettings(get().adopt);
  },
  async change(patch) {
    try {
      get().adopt(await api().updateStationSettings(patch));
      return null;
    } catch (error) {
      return describeError(error);
    }
  },
}));

/** The settings an earlier version kept in this terminal's storage, by their old names. */
const OLD_KEYS = ['scanner.prefix', 'scanner.suffix', 'currency', 'receive.unset-conditions'] as const;
let moving = false;

/**
 * Earlier versions kept these settings per terminal: the first terminal to see a station that never
 * had settings hands its own over, so a station upgraded in place keeps what its dock set up.
 */
async function moveTerminalSettings(adopt: StationSettingsState['adopt']): Promise<void> {
  if (moving) return;
  const [prefix, suffix, currency, unset] = OLD_KEYS.map((key) => readSetting(key));
  if (!prefix && !currency && !unset) return;
  moving = true;
  const patch: StationSettingsUpdateInput = {};
  if (prefix) patch.scanner = { prefix, ...(suffix ? { suffix } : {}) };
  if (currency) patch.currency = currency as CurrencyCode;
  if (unset === 'allow' || unset === 'confirm') patch.unset_conditions = unset;
  try {
    adopt(await api().updateStationSettings(patch));
    for (const key of OLD_KEYS) writeSetting(key, null);
  } catch (error) {
    // Refused (a value this version no longer takes): set them again on the settings screen.
    // Unreachable: kept here for the next status that says the station has none.
    if (error instanceof ApiError) for (const key of OLD_KEYS) writeSetting(key, null);
    else useStationSettings.setState({ updatedAt: undefined });
  } finally {
    moving = false;
  }
}
