import { createSseParser } from '#shared/api/sse.ts';
import type { RateBudget } from './rate-budget.ts';
import type { FetchLike, UpstreamSettings } from './upstream-client.ts';
import { UpstreamBackingOffError } from './upstream-gate.ts';
import { upstreamFetch } from './upstream-fetch.ts';

/*
 * Following the upstream's event stream (docs/decisions/sync.md, "Following a Returns Station").
 * The spec's returns service has no event stream; a Returns Station as the upstream (a site's hub)
 * has one per account. Whether the upstream has one is found out at run time, never assumed: a
 * stream is followed only when the upstream answers `GET {base_url}/v1/accounts/{id}/events` with 200
 * and `text/event-stream`; any other answer means a returns service without one, asked again only
 * when the settings change or after an hour. Each change event is a reason to pull that account now
 * (the scheduler coalesces them into its rounds, which go through the upstream's gate and rate
 * budget like every other request); the stream itself sends nothing upstream but its opening, which
 * goes through that same budget and gate: a failing upstream is not knocked on more often for it.
 * Polling stays as it is: the fallback, and the check that nothing was missed.
 */

/** How sync learns of the upstream's changes: from its event stream, or by its pull interval alone. */
export type UpstreamEventsState = 'following' | 'polling';

/** An upstream that answered without an event stream is asked again after this long (or when the settings change). */
export const ASK_AGAIN_MS = 60 * 60_000;
/** Reconnecting after a dropped stream: full jitter below a ceiling that doubles from this… */
export const RECONNECT_BASE_MS = 1_000;
/** …up to this. */
export const RECONNECT_CAP_MS = 60_000;
/**
 * A stream that sent nothing (not even its keep-alive comment, every 15 s from a station:
 * api/http/timeouts.ts) for twice that long is taken for stalled: dropped and reopened.
 */
export const STALL_MS = 30_000;
/** While the gate is closed with no end known (its probe is out), look again this often. */
const GATE_LOOK_AGAIN_MS = 1_000;
/** A stream that stayed open this long was healthy: the next drop starts the backoff afresh. */
const HEALTHY_MS = 30_000;
/** The opening's answer (its status and headers) must come within this. */
const OPEN_TIMEOUT_MS = 20_000;

/** The events that tell of a change to pull; `sync.status` and comments do not. */
const CHANGE_EVENT = /^(package|return)\.(created|updated)$/;

export interface UpstreamEventsOptions {
  /** The upstream settings as stored now (settings.ts); null: no upstream. */
  readSettings(): Promise<UpstreamSettings | null>;
  /** A change event arrived for this account (or a stream (re)opened: what happened while it was closed is pulled). */
  changed(accountId: number): void;
  /** A site's hub told that its configuration changed (`site.config`): its members fetch it again. */
  siteConfigChanged?(): void;
  /**
   * The upstream's request budget, shared with the rounds (rate-budget.ts): each opening is a request
   * like theirs — it waits for the budget and is held while the gate is closed (a 5xx or a lost answer,
   * honouring Retry-After), and its answer, or a connection that failed, is told back. It is never the
   * gate's probe (the rounds probe: a stream's head may be held back by a proxy that buffers).
   */
  budget(settings: UpstreamSettings): Pick<RateBudget, 'acquire' | 'observe' | 'unreachable' | 'released' | 'gate'>;
  /** Resolves when the rounds have spoken to the upstream once: streams open after that, not beside the first round. */
  ready: Promise<void>;
  /** Told whenever the state changes (for the sync status); null while no upstream is set. */
  onState(state: UpstreamEventsState | null): void;
  fetch?: FetchLike;
  log?: (message: string) => void;
  random?: () => number;
  /** Silence after which a stream is taken for stalled (default STALL_MS; the tests shorten it). */
  stallMs?: number;
}

export interface UpstreamEvents {
  /** Reads the settings again; streams of an upstream, token or account that changed are closed and opened anew (and asked again). */
  settingsChanged(): Promise<void>;
  state(): UpstreamEventsState | null;
  stop(): Promise<void>;
}

/** The reconnect wait after `failures` drops in a row: full jitter under an exponential ceiling, never below a quarter second. */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_CAP_MS, RECONNECT_BASE_MS * 2 ** Math.min(Math.max(failures - 1, 0), 20));
  return Math.max(250, Math.floor(random() * ceiling));
}

const keyOf = (s: UpstreamSettings) => JSON.stringify([s.base_url, s.token]);

/** Why an answer is not an event stream, or null when it is one. */
function notAStream(response: Response): string | null {
  const type = response.headers.get('content-type') ?? '';
  if (response.status === 200 && /^text\/event-stream\b/i.test(type)) return null;
  return `HTTP ${response.status}${type ? ` (${type.split(';')[0]})` : ''}`;
}

type Outcome = { kind: 'none'; why: string; refused: boolean } | { kind: 'dropped'; why: string; healthy: boolean } | { kind: 'stopped' };

/** One account's stream: opens it, reads it until it ends, stalls or is aborted. */
async function followOnce(
  settings: UpstreamSettings,
  accountId: number,
  lastEventId: { value: string },
  signal: AbortSignal,
  options: Pick<UpstreamEventsOptions, 'changed' | 'siteConfigChanged' | 'fetch'> & {
    opened(): void;
    stallMs: number;
    budget: Pick<RateBudget, 'observe' | 'unreachable' | 'released'>;
  },
): Promise<Outcome> {
  const url = `${settings.base_url.replace(/\/+$/, '')}/v1/accounts/${accountId}/events`;
  const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${settings.token}` };
  if (lastEventId.value !== '') headers['Last-Event-ID'] = lastEventId.value;
  const local = new AbortController();
  const abort = () => local.abort();
  signal.addEventListener('abort', abort);
  const openTimer = setTimeout(abort, OPEN_TIMEOUT_MS);
  let stall: NodeJS.Timeout | undefined;
  const openedAt = Date.now();
  try {
    const fetchImpl = upstreamFetch(settings, options.fetch);
    let response: Response;
    try {
      response = await fetchImpl(url, { method: 'GET', headers, signal: local.signal });
    } catch (error) {
      if (signal.aborted) {
        options.budget.released();
        return { kind: 'stopped' };
      }
      // A stream's head held back (a proxy that buffers) says nothing of the upstream's health; a
      // connection that failed does.
      if (local.signal.aborted) {
        options.budget.released();
        return { kind: 'dropped', why: `no answer in ${OPEN_TIMEOUT_MS / 1000} s`, healthy: false };
      }
      const why = error instanceof Error ? error.message : String(error);
      options.budget.unreachable(why);
      return { kind: 'dropped', why, healthy: false };
    } finally {
      clearTimeout(openTimer);
    }
    // The opening's answer counts like any other: its limit headers, a 429's or a 5xx's Retry-After.
    options.budget.observe(response.status, response.headers);
    const why = notAStream(response);
    if (why !== null || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      // A failing upstream (5xx), or one that holds too many of this token's streams (429), may well
      // have a stream a little later: that is a drop, not an answer.
      if (response.status >= 500 || response.status === 429) return { kind: 'dropped', why: why ?? 'no body', healthy: false };
      return { kind: 'none', why: why ?? 'no body', refused: response.status === 401 || response.status === 403 };
    }
    options.opened();
    const parser = createSseParser(
      {
        onMessage(message) {
          if (message.id !== '') lastEventId.value = message.id;
          if (CHANGE_EVENT.test(message.event)) options.changed(accountId);
          else if (message.event === 'site.config') options.siteConfigChanged?.();
        },
      },
      lastEventId.value,
    );
    const rearm = () => {
      if (stall) clearTimeout(stall);
      stall = setTimeout(abort, options.stallMs);
    };
    rearm();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        rearm();
        parser.push(decoder.decode(chunk, { stream: true }));
      }
    } catch (error) {
      if (signal.aborted) return { kind: 'stopped' };
      const why = local.signal.aborted ? `no data for ${options.stallMs / 1000} s` : error instanceof Error ? error.message : String(error);
      return { kind: 'dropped', why, healthy: Date.now() - openedAt >= HEALTHY_MS };
    }
    if (signal.aborted) return { kind: 'stopped' };
    return { kind: 'dropped', why: 'the upstream ended the stream', healthy: Date.now() - openedAt >= HEALTHY_MS };
  } finally {
    if (stall) clearTimeout(stall);
    clearTimeout(openTimer);
    signal.removeEventListener('abort', abort);
  }
}

/** Keeps one stream open per synced account while the upstream has them; see the top of this file. */
export function startUpstreamEvents(options: UpstreamEventsOptions): UpstreamEvents {
  const random = options.random ?? Math.random;
  let current: { key: string; controller: AbortController; loops: Promise<void>[]; accounts: string } | null = null;
  /** Per account of the current settings: following (a stream is open) or not. */
  const open = new Map<number, boolean>();
  /** The upstream answered without a stream: polling until this instant. */
  let noStreamUntil = 0;
  let state: UpstreamEventsState | null = null;
  let stopped = false;

  const setState = (next: UpstreamEventsState | null) => {
    if (next === state) return;
    state = next;
    options.onState(next);
  };
  const refreshState = () => setState(current === null ? null : [...open.values()].some(Boolean) ? 'following' : 'polling');

  /** Resolves after `ms`, or at once when the signal aborts. */
  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
    });

  async function followAccount(settings: UpstreamSettings, accountId: number, signal: AbortSignal): Promise<void> {
    const lastEventId = { value: '' };
    let failures = 0;
    const budget = options.budget(settings);
    let askedForProbe = false;
    await Promise.race([options.ready, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
    while (!signal.aborted) {
      if (noStreamUntil > Date.now()) {
        await sleep(noStreamUntil - Date.now(), signal);
        continue;
      }
      // Never knock while the upstream's gate is closed (a 5xx or a lost answer: upstream-gate.ts) or
      // its probe is out — the rounds probe — nor beyond its rate budget (a refusal to wait: later).
      const gate = budget.gate();
      if (gate.opensAt !== null || gate.probing) {
        // A round is asked for (it waits for the gate): its probe is what opens it again, and it pulls
        // what changed while no stream was open.
        if (!askedForProbe) options.changed(accountId);
        askedForProbe = true;
        await sleep(Math.max((gate.opensAt ?? 0) - Date.now(), GATE_LOOK_AGAIN_MS), signal);
        continue;
      }
      askedForProbe = false;
      let admitted: boolean;
      try {
        admitted = await budget.acquire('pull');
      } catch (error) {
        if (!(error instanceof UpstreamBackingOffError)) throw error;
        const opensAt = budget.gate().opensAt;
        await sleep(opensAt === null ? GATE_LOOK_AGAIN_MS : Math.max(opensAt - Date.now(), GATE_LOOK_AGAIN_MS), signal);
        continue;
      }
      if (signal.aborted) return;
      if (!admitted) {
        await sleep(reconnectDelayMs(failures + 1, random), signal);
        continue;
      }
      const outcome = await followOnce(settings, accountId, lastEventId, signal, {
        ...options,
        budget,
        stallMs: options.stallMs ?? STALL_MS,
        opened() {
          open.set(accountId, true);
          refreshState();
          // What changed while no stream was open (or before the first one) is pulled now.
          options.changed(accountId);
          options.siteConfigChanged?.();
        },
      });
      open.set(accountId, false);
      refreshState();
      if (outcome.kind === 'stopped') return;
      if (outcome.kind === 'none') {
        // Not a Returns Station (or this token may not follow): poll, and ask again much later.
        if (noStreamUntil <= Date.now()) options.log?.(`sync: the upstream has no event stream for account ${accountId} (${outcome.why}); polling`);
        noStreamUntil = Date.now() + ASK_AGAIN_MS;
        failures = 0;
        // The token was refused (a member its hub removed, a revoked token): a round now learns it
        // and pauses, rather than at the next interval.
        if (outcome.refused) options.changed(accountId);
        continue;
      }
      failures = outcome.healthy ? 1 : failures + 1;
      if (failures === 1 || failures % 10 === 0)
        options.log?.(`sync: the upstream's event stream for account ${accountId} dropped (${outcome.why}); reconnecting`);
      await sleep(reconnectDelayMs(failures, random), signal);
    }
  }

  async function restart(settings: UpstreamSettings | null): Promise<void> {
    const previous = current;
    current = null;
    open.clear();
    if (previous) {
      previous.controller.abort();
      await Promise.all(previous.loops);
    }
    if (stopped || !settings) {
      refreshState();
      return;
    }
    noStreamUntil = 0;
    const controller = new AbortController();
    for (const accountId of settings.accounts) open.set(accountId, false);
    current = { key: keyOf(settings), controller, accounts: JSON.stringify(settings.accounts), loops: [] };
    current.loops = settings.accounts.map((accountId) => followAccount(settings, accountId, controller.signal));
    refreshState();
  }

  /** Settings changes come one at a time. */
  let changing: Promise<void> = Promise.resolve();
  const settingsChanged = () => {
    changing = changing
      .then(async () => {
        const settings = await options.readSettings();
        if (settings && current && current.key === keyOf(settings) && current.accounts === JSON.stringify(settings.accounts)) return;
        await restart(settings);
      })
      .catch((error: unknown) => {
        // The store closed under a read at shutdown (or a read failed): streams stay as they are.
        if (!stopped)
          options.log?.(`sync: the upstream settings could not be read for the event streams: ${error instanceof Error ? error.message : String(error)}`);
      });
    return changing;
  };
  void settingsChanged();

  return {
    settingsChanged,
    state: () => state,
    async stop() {
      stopped = true;
      await changing.catch(() => undefined);
      await restart(null);
    },
  };
}
