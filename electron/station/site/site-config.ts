import { createHash } from 'node:crypto';
import type { DispositionRules } from '#shared/api/disposition-rules.ts';
import { SiteConfigSchema, type SiteConfig, type SiteManaged, type SiteWorker } from '#shared/api/site-config.ts';
import { normaliseCode } from '#shared/barcode.ts';
import { z } from 'zod';
import { logChange } from '../domain/change-log.ts';
import { dispositionRulesIn, replaceDispositionRules } from '../domain/dispositions.ts';
import { isActiveSupervisor, operatorView } from '../domain/operators.ts';
import { changeSettingsIn, settingsIn } from '../domain/station-settings.ts';
import { revokeTokensOf } from '../domain/tokens.ts';
import { fail } from '../errors.ts';
import type { BoundTables, Operator, ReadTables } from '../store/index.ts';
import { upstreamSettingsIn } from '../sync/settings.ts';

/*
 * The site's configuration (docs/decisions/site-config.md). The hub owns the workers, the
 * disposition rules and bins, and the rule-like settings; a member takes them into its own tables
 * (operators, the rules' and the settings' station_meta rows), so sign-in and dispositions work on
 * it exactly as on a station of its own — offline and across restarts too — and refuses to change them.
 */

/** What a member took last: the version, when, from which hub. */
const TAKEN_KEY = 'site.config';
/** The member's own rules from before it joined: kept aside, shown, not applied. */
const OWN_RULES_KEY = 'site.own_rules';

const TakenSchema = z.object({ version: z.string(), taken_at: z.string(), hub_url: z.string() });
const OwnRulesSchema = z.object({ rules: z.unknown().nullable() });

/** A worker as the site knows it (the operator's PIN hash included: only members are sent it). */
export function siteWorkerOf(operator: Readonly<Operator>): SiteWorker {
  return {
    uid: operator.uid,
    name: operator.name,
    badge_code: operator.badge_code,
    sign_in_key: operator.sign_in_key ?? null,
    role: operator.role ?? 'worker',
    active: operator.active,
    pin_hash: operator.pin_hash ?? null,
  };
}

/** The hub's configuration for its members; its version is a hash of the rest, so it moves with any change and only then. */
export async function siteConfigOf(t: ReadTables): Promise<SiteConfig> {
  const operators = await t.operators.all();
  const rules = await dispositionRulesIn(t);
  const settings = await settingsIn(t);
  const body = {
    workers: operators.sort((a, b) => a.id - b.id).map(siteWorkerOf),
    disposition_rules: { ...rules, updated_at: null },
    settings: {
      unset_conditions: settings.unset_conditions,
      currency: settings.currency,
      weight_check: settings.weight_check,
      serial_rules: settings.serial_rules,
    },
  };
  const version = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 32);
  return SiteConfigSchema.parse({ version, ...body });
}

/** The hub's address when this station is a site's member (its workers, rules and rule-like settings are the hub's), else null. */
export async function managingHubOf(t: Pick<ReadTables, 'station_meta'>): Promise<string | null> {
  const settings = await upstreamSettingsIn(t);
  return settings?.site ? settings.returns_url : null;
}

/** Refuses a change of what the site's hub owns, on a member: 409 SITE_MANAGED naming the hub. */
export async function assertNotSiteManaged(t: Pick<ReadTables, 'station_meta'>, what: string): Promise<void> {
  const hub = await managingHubOf(t);
  if (hub !== null) throw fail('SITE_MANAGED', `${what} are managed by the site's hub at ${hub}: change them there.`, { hub_url: hub });
}

/** What a member shows of what it took; null on a station that joined no site. */
export async function siteManagedOf(t: Pick<ReadTables, 'station_meta'>): Promise<SiteManaged | null> {
  const hub = await managingHubOf(t);
  if (hub === null) return null;
  const taken = TakenSchema.safeParse((await t.station_meta.get(TAKEN_KEY))?.value);
  const own = OwnRulesSchema.safeParse((await t.station_meta.get(OWN_RULES_KEY))?.value);
  const ownRules = own.success && own.data.rules !== null ? (own.data.rules as DispositionRules) : null;
  return {
    hub_url: hub,
    version: taken.success ? taken.data.version : null,
    taken_at: taken.success ? taken.data.taken_at : null,
    own_rules_before_join: ownRules,
  };
}

/** The version this member took last (sent as If-None-Match); null before the first. */
export async function takenVersionOf(t: Pick<ReadTables, 'station_meta'>): Promise<string | null> {
  const taken = TakenSchema.safeParse((await t.station_meta.get(TAKEN_KEY))?.value);
  return taken.success ? taken.data.version : null;
}

/**
 * Takes the hub's workers into this station's operators. A worker is matched by its `uid`, else by
 * its badge (as a scan reads it): a record that matched by badge takes the hub's `uid`, and keeps
 * its local id, so what it did here keeps naming it. Workers the hub does not list are deactivated.
 * A changed PIN, a deactivation or a lost role ends the worker's supervisor sessions, as at the hub.
 */
async function takeWorkers(t: BoundTables, now: string, workers: readonly SiteWorker[]): Promise<void> {
  const locals = await t.operators.all();
  const byUid = new Map(locals.map((o) => [o.uid, o]));
  const byBadge = new Map(locals.filter((o) => o.badge_code !== null).map((o) => [normaliseCode(o.badge_code ?? ''), o]));
  const finals: Array<{ before: Operator | null; next: Omit<Operator, 'id'> & { id?: number } }> = [];
  const matched = new Set<number>();
  for (const worker of workers) {
    const candidate = byUid.get(worker.uid) ?? (worker.badge_code === null ? undefined : byBadge.get(normaliseCode(worker.badge_code)));
    const local = candidate && !matched.has(candidate.id) ? candidate : undefined;
    if (local) matched.add(local.id);
    const fields = {
      uid: worker.uid,
      name: worker.name,
      badge_code: worker.badge_code,
      active: worker.active,
      role: worker.role,
      sign_in_key: worker.sign_in_key,
      pin_hash: worker.pin_hash,
    };
    finals.push({ before: local ?? null, next: local ? { ...local, ...fields } : { ...fields, created_at: now, updated_at: now } });
  }
  for (const local of locals) {
    if (!matched.has(local.id) && local.active) finals.push({ before: local, next: { ...local, active: false } });
  }
  const changed = finals.filter(({ before, next }) => before === null || JSON.stringify(before) !== JSON.stringify(next));
  // Badges are unique in the table: those that move are cleared first, so two workers may swap theirs.
  for (const { before, next } of changed) {
    if (before && before.badge_code !== null && before.badge_code !== next.badge_code) await t.operators.put({ ...before, badge_code: null });
  }
  for (const { before, next } of changed) {
    const record = { ...next, updated_at: before ? (before.updated_at > now ? before.updated_at : now) : now } as Operator;
    const id = before ? (await t.operators.put({ ...record, id: before.id }), before.id) : await t.operators.add(record);
    const stored = { ...record, id };
    if (before && isActiveSupervisor(before) && (!isActiveSupervisor(stored) || before.pin_hash !== stored.pin_hash)) await revokeTokensOf(t, now, id);
    await logChange(t, {
      account_id: null,
      resource: 'operator',
      resource_id: id,
      action: before ? 'updated' : 'created',
      data: operatorView(stored),
      at: now,
    });
  }
}

/**
 * Takes the hub's configuration in one write: the workers, the rules (this station's own, from
 * before it joined, kept aside the first time) and the rule-like settings. Returns false when this
 * version was taken already.
 */
export async function takeSiteConfig(t: BoundTables, now: string, config: SiteConfig, hubUrl: string): Promise<boolean> {
  if ((await takenVersionOf(t)) === config.version) return false;
  if (!(await t.station_meta.get(OWN_RULES_KEY))) {
    const own = await dispositionRulesIn(t);
    // Rules never changed here are the defaults, not this station's own.
    await t.station_meta.put({ key: OWN_RULES_KEY, value: { rules: own.updated_at === null ? null : own } });
  }
  await takeWorkers(t, now, config.workers);
  await replaceDispositionRules(t, now, { dispositions: config.disposition_rules.dispositions, rules: config.disposition_rules.rules });
  await changeSettingsIn(t, now, config.settings);
  await t.station_meta.put({ key: TAKEN_KEY, value: { version: config.version, taken_at: now, hub_url: hubUrl } });
  return true;
}

/** A station's own workers as it brings them to the site it joins. */
export async function ownWorkersOf(t: Pick<ReadTables, 'operators'>): Promise<SiteWorker[]> {
  return (await t.operators.all()).sort((a, b) => a.id - b.id).map(siteWorkerOf);
}

/**
 * On the hub, at a join: the joining station's workers merged into the site's by badge. A badge the
 * hub has already is the hub's worker — its name, PIN and role stay the hub's; the station's record
 * takes the hub's uid when it takes the configuration. A new badge (or a worker without one) is added
 * to the site with its own uid, name, role, PIN hash and state; its sign-in key only when no active
 * worker of the site has that key. Returns how many were added and how many were the hub's already.
 */
export async function mergeJoiningWorkers(t: BoundTables, now: string, workers: readonly SiteWorker[]): Promise<{ added: number; matched: number }> {
  const site = await t.operators.all();
  const badges = new Set(site.flatMap((o) => (o.badge_code === null ? [] : [normaliseCode(o.badge_code)])));
  const uids = new Set(site.map((o) => o.uid));
  const keys = new Set(site.flatMap((o) => (o.active && typeof o.sign_in_key === 'number' ? [o.sign_in_key] : [])));
  let added = 0;
  let matched = 0;
  for (const worker of workers) {
    if ((worker.badge_code !== null && badges.has(normaliseCode(worker.badge_code))) || uids.has(worker.uid)) {
      matched += 1;
      continue;
    }
    const supervisor = worker.role === 'supervisor' && worker.badge_code !== null && worker.pin_hash !== null;
    const keyFree = worker.sign_in_key !== null && !(worker.active && keys.has(worker.sign_in_key));
    const draft: Omit<Operator, 'id'> = {
      uid: worker.uid,
      name: worker.name,
      badge_code: worker.badge_code,
      active: worker.active,
      role: supervisor ? 'supervisor' : 'worker',
      sign_in_key: keyFree ? worker.sign_in_key : null,
      pin_hash: worker.pin_hash,
      created_at: now,
      updated_at: now,
    };
    const id = await t.operators.add(draft as Operator);
    await logChange(t, { account_id: null, resource: 'operator', resource_id: id, action: 'created', data: operatorView({ ...draft, id }), at: now });
    if (worker.badge_code !== null) badges.add(normaliseCode(worker.badge_code));
    uids.add(worker.uid);
    if (draft.active && typeof draft.sign_in_key === 'number') keys.add(draft.sign_in_key);
    added += 1;
  }
  return { added, matched };
}
