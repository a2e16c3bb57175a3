import { ApiError } from '#shared/api/client.ts';
import type { DispositionRule, DispositionRules, DispositionRulesUpdate } from '#shared/api/disposition-rules.ts';
import { DISPOSITIONS, type Disposition, type DispositionStyles, type ItemCondition } from '#shared/dispositions.ts';
import type { PackageStatus } from '#shared/package-status.ts';
import { describeError } from '../api/describe-error.ts';

/*
 * The rules screen's draft (docs/operator-guide.md, Dispositions): the station's rule table as the
 * supervisor edits it, turned into the body of `PUT /api/v1/station/disposition-rules`, and a refusal's
 * `details.fields` turned back into messages beside the fields they are about. Rules carry a key of
 * their own, so a refusal stays with its rule when rules are moved, added or deleted after it.
 */

export type DefectiveChoice = 'any' | 'yes' | 'no';

export interface DraftRule {
  /** Stable for the screen's life (React key, and where refusals are kept); never sent. */
  key: number;
  name: string;
  /** Ticked conditions; none ticked: any. */
  condition: ItemCondition[];
  defective: DefectiveChoice;
  reason_contains: string;
  sku_prefix: string;
  /** Ticked package statuses; none ticked: any. */
  package_status: PackageStatus[];
  disposition: Disposition;
  bin: string;
}

export interface Draft {
  rules: DraftRule[];
  dispositions: DispositionStyles;
}

export type RuleField = 'name' | 'condition' | 'defective' | 'reason_contains' | 'sku_prefix' | 'package_status' | 'disposition' | 'bin';

export const RULE_FIELD_LABELS: Record<RuleField, string> = {
  name: 'name',
  condition: 'condition',
  defective: 'defective',
  reason_contains: 'reason contains',
  sku_prefix: 'SKU prefix',
  package_status: 'package status',
  disposition: 'disposition',
  bin: 'bin',
};

/** Where a refusal is shown: beside a rule's field, on a whole rule, on a disposition's label or colour, or on the table. */
export const ruleFieldId = (key: number, field?: RuleField): string => (field ? `rule:${key}:${field}` : `rule:${key}`);
export const styleFieldId = (disposition: Disposition, field: 'label' | 'color'): string => `dispositions.${disposition}.${field}`;
export const TABLE_FIELD = 'rules';

export interface Refusals {
  /** Messages by field id (ruleFieldId, styleFieldId, TABLE_FIELD). */
  fields: ReadonlyMap<string, string>;
  /** Every refusal as a sentence naming where it is, in the station's order. */
  summary: string[];
}

export const NO_REFUSALS: Refusals = { fields: new Map(), summary: [] };

let nextKey = 1;
const newKey = (): number => nextKey++;

function toDraftRule(rule: DispositionRule): DraftRule {
  return {
    key: newKey(),
    name: rule.name ?? '',
    condition: [...(rule.condition ?? [])],
    defective: rule.defective === null ? 'any' : rule.defective ? 'yes' : 'no',
    reason_contains: rule.reason_contains ?? '',
    sku_prefix: rule.sku_prefix ?? '',
    package_status: [...(rule.package_status ?? [])],
    disposition: rule.disposition,
    bin: rule.bin,
  };
}

/** The draft of the rules the station answered with. */
export function draftOf(table: Pick<DispositionRules, 'rules' | 'dispositions'>): Draft {
  const dispositions = Object.fromEntries(
    DISPOSITIONS.map((d) => [d, { label: table.dispositions[d].label, color: table.dispositions[d].color }]),
  ) as DispositionStyles;
  return { rules: table.rules.map(toDraftRule), dispositions };
}

/** A new rule for the end of the table: any item → quarantine, bin to be given. */
export function newRule(): DraftRule {
  return {
    key: newKey(),
    name: '',
    condition: [],
    defective: 'any',
    reason_contains: '',
    sku_prefix: '',
    package_status: [],
    disposition: 'quarantine',
    bin: '',
  };
}

const textOrNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());
const setOrNull = <T>(values: readonly T[]): T[] | null => (values.length === 0 ? null : [...values]);

/** The body of the PUT: empty texts and sets are left out (any), texts and bins trimmed. */
export function bodyOf(draft: Draft): DispositionRulesUpdate {
  return {
    dispositions: Object.fromEntries(
      DISPOSITIONS.map((d) => [d, { label: draft.dispositions[d].label.trim(), color: draft.dispositions[d].color }]),
    ) as DispositionStyles,
    rules: draft.rules.map((r) => ({
      name: textOrNull(r.name),
      condition: setOrNull(r.condition),
      defective: r.defective === 'any' ? null : r.defective === 'yes',
      reason_contains: textOrNull(r.reason_contains),
      sku_prefix: textOrNull(r.sku_prefix),
      package_status: setOrNull(r.package_status),
      disposition: r.disposition,
      bin: r.bin.trim(),
    })),
  };
}

/** Moves the rule at `index` up (-1) or down (+1); the same draft when it cannot move. */
export function moveRule(draft: Draft, index: number, by: -1 | 1): Draft {
  const to = index + by;
  if (index < 0 || to < 0 || index >= draft.rules.length || to >= draft.rules.length) return draft;
  const rules = [...draft.rules];
  const [rule] = rules.splice(index, 1);
  if (rule) rules.splice(to, 0, rule);
  return { ...draft, rules };
}

/** The station speaks of `rules[2]` (from 0); people read "rule 3". */
export const humanPaths = (message: string): string => message.replace(/rules\[(\d+)\]/g, (_m, n: string) => `rule ${Number(n) + 1}`);

const RULE_PATH = /^rules\[(\d+)\](?:\.([a-z_]+))?/;
const STYLE_PATH = /^dispositions\.([a-z_]+)\.(label|color)/;

/**
 * Where each refusal of a PUT of `draft` goes: `rules[2].bin` beside rule 3's bin (deeper paths, as
 * `rules[1].condition[0]`, beside the field), `rules[3]` on the whole rule, `dispositions.restock.color`
 * beside that colour, anything else on the table. Not a refusal (unreachable, another error): the
 * summary alone says what happened.
 */
export function refusalsOf(error: unknown, draft: Draft): Refusals {
  const fields = new Map<string, string>();
  const summary: string[] = [];
  const listed = error instanceof ApiError && error.errorCode === 'VALIDATION_FAILED' ? (error.details as { fields?: unknown }).fields : undefined;
  if (!Array.isArray(listed) || listed.length === 0) return { fields, summary: [describeError(error)] };
  const add = (id: string, message: string) => fields.set(id, fields.has(id) ? `${fields.get(id)} ${message}` : message);
  for (const entry of listed as { path?: unknown; message?: unknown }[]) {
    const path = String(entry.path ?? '');
    const message = humanPaths(String(entry.message ?? 'Refused.'));
    const rule = RULE_PATH.exec(path);
    const style = STYLE_PATH.exec(path);
    const draftRule = rule ? draft.rules[Number(rule[1])] : undefined;
    if (rule && draftRule) {
      const field = rule[2] && rule[2] in RULE_FIELD_LABELS ? (rule[2] as RuleField) : undefined;
      add(ruleFieldId(draftRule.key, field), message);
      summary.push(`Rule ${Number(rule[1]) + 1}${field ? `, ${RULE_FIELD_LABELS[field]}` : ''}: ${message}`);
    } else if (style && (DISPOSITIONS as readonly string[]).includes(style[1] ?? '')) {
      const d = style[1] as Disposition;
      add(styleFieldId(d, style[2] as 'label' | 'color'), message);
      summary.push(`${draft.dispositions[d].label || d}, ${style[2] === 'color' ? 'colour' : 'label'}: ${message}`);
    } else {
      add(TABLE_FIELD, message);
      summary.push(path && path !== 'rules' ? `${path}: ${message}` : message);
    }
  }
  return { fields, summary };
}
