import { create, type StoreApi, type UseBoundStore } from 'zustand';
import { ApiError, type ApiClient } from '#shared/api/client.ts';
import type { CurrencyCode } from '#shared/api/currencies.ts';
import { DEFAULT_LABEL_SETTINGS, type LabelSettings } from '#shared/api/printing.ts';
import type { ScannerFraming, StationSettings, StationSettingsUpdateInput, UnsetConditionPolicy } from '#shared/api/station-settings.ts';
import { DEFAULT_WEIGHT_CHECK } from '#shared/api/weight-check.ts';
import { pageClient } from '../api/station-api.ts';
import { describeError } from '../api/describe-error.ts';
import { readSetting, writeSetting } from './settings.ts';

/*
 * The station's settings as this terminal knows them: kept by the station (every terminal of it shares
 * them, and they survive a restart), read with the status this screen polls and from the answer to a
 * change. Until the station first answers, the defaults apply: scans told by speed, no currency,
 * confirm before receiving with conditions not set.
 */

export type { UnsetConditionPolicy };

export interface StationSettingsState {
  /** The scanner's prefix and suffix keys; null: scans are told apart from typing by their speed. */
  framing: ScannerFraming | null;
  /** New manual returns default to their account's currency, else this one, else USD. */
  currency: CurrencyCode | null;
  unsetConditions: UnsetConditionPolicy;
  /** Where labels print (the browser until the station says otherwise) and whether a package slip goes with them. */
  labels: LabelSettings;
  /** Which units need their serial (the station's serial rules; a site's hub's on a member). */
  serialRules: StationSettings['serial_rules'];
  /** How far a parcel's weight may be from what it should weigh, and the box's tare (a site's hub's on a member). */
  weightCheck: StationSettings['weight_check'];
  /** When the station's settings last changed, as last taken (null: never changed; undefined: not heard yet). */
  updatedAt: string | null | undefined;
  /** Takes the settings the station answered with. */
  adopt(settings: StationSettings): void;
  /** Changes settings on the station; returns why not (a sentence a person can act on), or null. */
  change(patch: StationSettingsUpdateInput): Promise<string | null>;
}

export type StationSettingsStore = UseBoundStore<StoreApi<StationSettingsState>>;
export type StationSettingsClient = Pick<ApiClient, 'updateStationSettings'>;

/** A terminal's view of its station's settings, changed through `client`. */
export function createStationSettingsStore(client: StationSettingsClient): StationSettingsStore {
  const store: StationSettingsStore = create<StationSettingsState>()((set, get) => ({
    framing: null,
    currency: null,
    unsetConditions: 'confirm',
    labels: DEFAULT_LABEL_SETTINGS,
    serialRules: [],
    weightCheck: DEFAULT_WEIGHT_CHECK,
    updatedAt: undefined,
    adopt(settings) {
      // Every status poll brings them: only a change (or the first answer) is taken, so nothing re-renders for nothing.
      if (settings.updated_at === get().updatedAt) return;
      set({
        framing: settings.scanner,
        currency: settings.currency,
        unsetConditions: settings.unset_conditions,
        labels: settings.labels,
        serialRules: settings.serial_rules,
        weightCheck: settings.weight_check,
        updatedAt: settings.updated_at,
      });
      if (settings.updated_at === null) void moveTerminalSettings(client, store);
    },
    async change(patch) {
      try {
        get().adopt(await client.updateStationSettings(patch));
        return null;
      } catch (error) {
        return describeError(error);
      }
    },
  }));
  return store;
}

/** This page's station settings. */
export const useStationSettings = createStationSettingsStore(pageClient);

/** The settings an earlier version kept in this terminal's storage, by their old names. */
const OLD_TERMINAL_SETTINGS = ['scanner.prefix', 'scanner.suffix', 'currency', 'receive.unset-conditions'] as const;
/** Stores whose hand-over is under way (one at a time each). */
const moving = new WeakSet<StationSettingsStore>();

/**
 * Earlier versions kept these settings per terminal: the first terminal to see a station that never
 * had settings hands its own over, so a station upgraded in place keeps what its dock set up.
 */
async function moveTerminalSettings(client: StationSettingsClient, store: StationSettingsStore): Promise<void> {
  if (moving.has(store)) return;
  const [prefix, suffix, currency, unset] = OLD_TERMINAL_SETTINGS.map((key) => readSetting(key));
  if (!prefix && !currency && !unset) return;
  moving.add(store);
  const patch: StationSettingsUpdateInput = {};
  if (prefix) patch.scanner = { prefix, ...(suffix ? { suffix } : {}) };
  if (currency) patch.currency = currency as CurrencyCode;
  if (unset === 'allow' || unset === 'confirm') patch.unset_conditions = unset;
  try {
    store.getState().adopt(await client.updateStationSettings(patch));
    for (const key of OLD_TERMINAL_SETTINGS) writeSetting(key, null);
  } catch (error) {
    // Refused (a value this version no longer takes): set them again on the settings screen.
    // Unreachable: kept here for the next status that says the station has none.
    if (error instanceof ApiError) for (const key of OLD_TERMINAL_SETTINGS) writeSetting(key, null);
    else store.setState({ updatedAt: undefined });
  } finally {
    moving.delete(store);
  }
}
