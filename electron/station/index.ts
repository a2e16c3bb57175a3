/*
 * The station's interface to the processes that run it: the command line (electron/cli) and the
 * station process's entry (electron/core). They reach the station only through what is named here
 * (the layer lint holds them to it); every other file under electron/station/ is its inside, free to
 * move. A command either talks to a running station over its API (#shared/api/client.ts) or, when
 * none runs, opens the data directory with `withStationStore` and calls the operations below.
 */

// Running a station, and what it is started with.
export { openStation, type Station } from './station.ts';
export {
  readStartupSetting,
  STARTUP_SETTING_FLAGS,
  STARTUP_SETTINGS,
  StartupSettingError,
  settingsGivenByFlags,
  stationOptionsFromStartupSettings,
} from './startup-settings.ts';
export { defaultDataDir } from './data-dir.ts';
export { readControl, removeControl, writeControl } from './control-file.ts';
export { semiSpaceMbFromEnv } from './heap/young-generation.ts';
export { tlsRequestFor, TlsSettingsError } from './tls/serving-tls.ts';
export { daysAfter, offsetClock } from './domain/clock.ts';
export { demoGuide, seedDemo } from './demo/seed-demo.ts';
export type { SystemPrinter } from './printing/printers.ts';

// A data directory opened by a command while no station serves it.
export { withStationStore } from './with-station-store.ts';
export type { DomainContext } from './domain/context.ts';

// What a refusal to start or to open says (the command prints it and exits with its code).
export { ContractError } from './errors.ts';
export { DataDirLockedError } from './data-dir-lock.ts';
export { NotAStationDatabaseError, StoreLockedError, StoreVersionTooNewError } from './store/index.ts';
export { SiteCertificateError } from './tls/site-certificate.ts';
export { StationCertificateError, TLS_DIR } from './tls/station-certificates.ts';

// Tokens and workers.
export { createToken, listTokens, revokeToken } from './domain/tokens.ts';
export { createOperator, listOperators, pinHashOf, updateOperator } from './domain/operators.ts';

// The upstream and its sync.
export { createSyncEngine } from './sync/sync-engine.ts';
export { listsOf } from './sync/lists/list-state.ts';
export { displayUrl, parseUpstreamSettings, readUpstreamSettings, removeUpstreamSettings, writeUpstreamSettings } from './sync/settings.ts';
export { DEFAULT_PULL_INTERVAL_MS } from './sync/scheduler.ts';
export { DEFAULT_HOT_DAYS, DEFAULT_HOT_RECENT_LIMIT, type SyncAccountState } from './store/index.ts';
export { fetchTrusting, sha256Fingerprint } from './tls/pinned-fetch.ts';

// A site: its hub, its members, its handhelds.
export { assertNotSiteManaged, ownWorkersOf } from './site/site-config.ts';
export { createInvite, removeMember } from './site/hub.ts';
export { joinHub, SiteJoinError } from './site/join.ts';
export { currentMembership, saveJoinedSite, siteViewOf } from './site/membership.ts';
export { stepDown } from './site/handover.ts';
export { TakeOverRefused, takeOverAsHub } from './site/take-over.ts';
export { createPairing } from './site/handheld-pairing.ts';
