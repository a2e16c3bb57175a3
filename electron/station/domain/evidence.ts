import type { PackageWeight } from '#shared/api/scale.ts';
import { fail } from '../errors.ts';
import type { Frozen, MediaFile, PackageLineItem, ReadTables, ReturnPackage } from '../store/index.ts';
import type { DomainContext } from './context.ts';
import { dispositionRulesIn } from './dispositions.ts';
import { weightOf } from './package-weights.ts';
import { settingsIn } from './station-settings.ts';
import { expectedWeightOf } from './weight-check.ts';
import { unitIdOf, unitPlaceOf } from './print-jobs.ts';

/*
 * What a package's evidence pack says (docs/operator-guide.md, The evidence pack): the parcel and its
 * return, the weights, each unit, the photos and who did what when, as the station has them now. The
 * history is read from the records themselves (who set a condition, who put a unit, who received the
 * package, when each photo was taken), not from the change log, which housekeeping sheds after days.
 * A value the station does not have is null here; the pack says so in words.
 */

interface EvidenceUnit {
  line_item_id: number;
  unit_id: string | null;
  sku: string | null;
  name: string | null;
  quantity: number;
  condition: string | null;
  defective: boolean;
  notes: string | null;
  serial: string | null;
  /** The serial check's finding when it was not plain (another unit has the serial, the site's hub not asked yet). */
  serial_finding: string | null;
  disposition: string | null;
  bin: string | null;
}

export interface EvidenceMedia {
  id: number;
  kind: MediaFile['type'];
  content_type: string;
  sha256: string;
  size: number;
  captured_at: string | null;
  stored_at: string;
  /** The bytes are kept at the site's hub, not here: the pack names the file but cannot hold it. */
  at_hub: boolean;
  /** Its name in the zip (`photos/…`, `files/…`): its place in the package and when it was taken. */
  file_name: string;
}

interface EvidenceEvent {
  at: string;
  who: string | null;
  what: string;
}

interface EvidenceReview {
  state: 'held' | 'released' | 'confirmed';
  held_at: string;
  findings: Array<{ check: string; text: string; at: string; by: string | null }>;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
}

export interface EvidenceFacts {
  package: {
    id: number;
    account_id: number;
    tracking_number: string;
    status: string;
    carrier: string | null;
    notes: string | null;
  };
  return: { id: number; email: string | null; reason: string | null } | null;
  expected_weight: { weight: number; unit: string; source: string } | null;
  measured_weight: (PackageWeight & { by: string | null }) | null;
  /** The weight check's verdict in words; null when not weighed. */
  weight_verdict: string | null;
  /** The supervisor's review of a package a check at the dock held; null when it was never held. */
  review: EvidenceReview | null;
  units: EvidenceUnit[];
  media: EvidenceMedia[];
  history: EvidenceEvent[];
  made_at: string;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
};

/** `2026-11-28T14:52:03.120Z` → `20261128-145203Z`: a time a file name can carry. */
function fileTime(iso: string): string {
  return iso
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

/** A photo's name in the zip: its number in the package, when it was taken (else stored), its type. */
function mediaFileName(media: Frozen<MediaFile>, index: number): string {
  const folder = media.type === 'image' ? 'photos' : 'files';
  const taken = media.captured_at ? `taken-${fileTime(media.captured_at)}` : `stored-${fileTime(media.created_at)}`;
  return `${folder}/${media.type === 'image' ? 'photo' : media.type}-${String(index + 1).padStart(2, '0')}-${taken}.${EXTENSIONS[media.content_type] ?? 'bin'}`;
}

/** A condition as the pack says it: `like_new` → `like new`. */
export function conditionWords(condition: string): string {
  return condition.replace(/_/g, ' ');
}

/** A unit's serial: its field, else (a unit an upstream sent) its `serial:` tag; null without one. */
function serialOf(item: Frozen<PackageLineItem>): string | null {
  if (item.serial) return item.serial;
  const tag = item.tags.find((t) => t.toLowerCase().startsWith('serial:') && t.length > 'serial:'.length);
  return tag === undefined ? null : tag.slice('serial:'.length);
}

const EXPECTED_FROM: Readonly<Record<string, string>> = {
  package: "the return package's weight",
  return: "the return's parcel weight",
  learned_skus: "its SKUs' weights learned from parcels received, with the box",
};

const VERDICT_WORDS: Readonly<Record<string, string>> = {
  ok: 'within the tolerance',
  light: 'lighter than the tolerance allows',
  heavy: 'heavier than the tolerance allows',
  nothing_to_compare: 'nothing to compare it with',
};

function unitHistory(item: Frozen<PackageLineItem>, unit: string, disposition: string | null, name: (id: number | null) => string | null): EvidenceEvent[] {
  const events: EvidenceEvent[] = [];
  if (item.condition !== null && item.condition_at)
    events.push({ at: item.condition_at, who: name(item.condition_by ?? null), what: `${unit}: condition ${conditionWords(item.condition)}` });
  const override = item.disposition_override;
  if (override)
    events.push({ at: override.at, who: name(override.by), what: `${unit}: disposition set to ${disposition ?? '-'} by hand (${override.reason})` });
  if (item.labelled_at) events.push({ at: item.labelled_at, who: null, what: `${unit}: label made` });
  if (item.put_confirmed_at) events.push({ at: item.put_confirmed_at, who: name(item.put_by ?? null), what: `${unit}: put in bin ${item.bin ?? '-'}` });
  return events;
}

function reviewOf(pkg: Frozen<ReturnPackage>, name: (id: number | null) => string | null): EvidenceReview | null {
  const review = pkg.review;
  if (!review) return null;
  return {
    state: review.state,
    held_at: review.held_at,
    findings: review.findings.map((f) => ({ check: f.check, text: f.text, at: f.at, by: name(f.operator_id) })),
    decided_by: review.decided_by_name ?? name(review.decided_by),
    decided_at: review.decided_at,
    reason: review.reason,
  };
}

function reviewHistory(review: EvidenceReview | null): EvidenceEvent[] {
  if (!review) return [];
  const events = review.findings.map((f) => ({ at: f.at, who: f.by, what: `held for review: ${f.check} check, ${f.text}` }));
  if (review.state !== 'held' && review.decided_at) {
    events.push({ at: review.decided_at, who: review.decided_by, what: `review ${review.state}${review.reason ? `: ${review.reason}` : ''}` });
  }
  return events;
}

function packageHistory(pkg: Frozen<ReturnPackage>, name: (id: number | null) => string | null): EvidenceEvent[] {
  const events: EvidenceEvent[] = [{ at: pkg.created_at, who: null, what: 'package recorded at the station' }];
  if (pkg.actual_arrival) events.push({ at: pkg.actual_arrival, who: null, what: 'parcel arrived at the dock' });
  if (pkg.status === 'received' && pkg.processed_at) {
    events.push({ at: pkg.processed_at, who: name(pkg.processor_id) ?? pkg.processor_name ?? null, what: 'package received (processed)' });
  }
  return events;
}

/** The evidence of package `id` of an account as the station has it now (404 for another account's or an unknown package). */
export async function evidenceOf(ctx: Pick<DomainContext, 'store' | 'config'>, accountId: number, id: number, now: string): Promise<EvidenceFacts> {
  const { store } = ctx;
  const whole = await store.packages.whole(id);
  if (whole?.pkg.account_id !== accountId) throw fail('NOT_FOUND', `No return package ${id} in account ${accountId}.`);
  const { pkg, lineItems, mediaFiles } = whole;
  const t: ReadTables = store.tables;
  const operators = new Map<number, string>();
  for (const operator of await store.operators.all()) operators.set(operator.id, operator.name);
  const name = (operatorId: number | null) => (operatorId === null ? null : (operators.get(operatorId) ?? `worker ${operatorId}`));
  const ret = await t.returns.get(pkg.return_id);
  const names = (await dispositionRulesIn(t)).dispositions;
  const weight = weightOf(pkg);
  // Weighed: what it was compared with then; not weighed: what it should weigh now.
  const expected =
    weight?.expected_weight != null && weight.expected_from != null
      ? { weight: weight.expected_weight, unit: weight.unit, from: weight.expected_from }
      : weight
        ? null
        : await expectedWeightOf(t, pkg, (await settingsIn(t)).weight_check);

  const units = lineItems.map((item): EvidenceUnit => {
    const place = unitPlaceOf(item, names);
    return {
      line_item_id: item.id,
      unit_id: unitIdOf(item),
      sku: item.merchant_sku,
      name: item.name,
      quantity: item.quantity,
      condition: item.condition,
      defective: item.defective,
      notes: item.notes,
      serial: serialOf(item),
      serial_finding: item.serial_check && item.serial_check.result !== 'unique' ? item.serial_check.message : null,
      ...place,
    };
  });
  const media = mediaFiles.map((m, i): EvidenceMedia => ({
    id: m.id,
    kind: m.type,
    content_type: m.content_type,
    sha256: m.sha256,
    size: m.size,
    captured_at: m.captured_at ?? null,
    stored_at: m.created_at,
    at_hub: m.remote_url !== undefined,
    file_name: mediaFileName(m, i),
  }));

  const review = reviewOf(pkg, name);
  const history = [
    ...packageHistory(pkg, name),
    ...reviewHistory(review),
    ...lineItems.flatMap((item, i) => unitHistory(item, `unit ${units[i]?.unit_id ?? `line ${item.id}`}`, units[i]?.disposition ?? null, name)),
    ...media.map((m, i) => ({
      at: m.captured_at ?? m.stored_at,
      who: null,
      what: `${m.kind === 'image' ? 'photo' : m.kind} ${i + 1} ${m.captured_at ? 'taken' : 'stored'}`,
    })),
    ...(weight ? [{ at: weight.weighed_at, who: name(weight.operator_id), what: `parcel weighed: ${weight.weight} ${weight.unit} (${weight.source})` }] : []),
  ].sort((a, b) => a.at.localeCompare(b.at));

  return {
    package: {
      id: pkg.id,
      account_id: pkg.account_id,
      tracking_number: pkg.tracking_number,
      status: pkg.status,
      carrier: ctx.config.carrier(pkg.carrier_id)?.name ?? null,
      notes: pkg.notes,
    },
    return: ret ? { id: ret.id, email: ret.email === '' ? null : ret.email, reason: ret.reason_of_return === '' ? null : ret.reason_of_return } : null,
    expected_weight: expected ? { weight: expected.weight, unit: expected.unit, source: EXPECTED_FROM[expected.from] ?? expected.from } : null,
    measured_weight: weight ? { ...weight, by: name(weight.operator_id) } : null,
    weight_verdict: weight?.verdict ? (VERDICT_WORDS[weight.verdict] ?? weight.verdict) : null,
    review,
    units,
    media,
    history,
    made_at: now,
  };
}
