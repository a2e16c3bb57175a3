/*
 * Serial numbers (docs/decisions/serials.md): which units need theirs, by a rule per SKU pattern, and
 * whether a scanned serial is one. Pure code, shared: the station checks with it when a serial is
 * recorded, and the dock with the same functions before it sends anything.
 */

/** A serial goes up in a tag `serial:<value>` (at most 40 characters): 33 are left for the value. */
export const SERIAL_TAG_PREFIX = 'serial:';
export const MAX_SERIAL_LENGTH = 40 - SERIAL_TAG_PREFIX.length;
/** A serial: visible ASCII characters, no spaces (what a label's barcode or a person types). */
export const SERIAL_PATTERN = `^[\\x21-\\x7E]{1,${MAX_SERIAL_LENGTH}}$`;
/** A SKU pattern: visible ASCII without spaces, `*` any run of characters, `?` one character. */
export const MAX_SKU_PATTERN_LENGTH = 64;
export const SKU_PATTERN_PATTERN = `^[\\x21-\\x7E]{1,${MAX_SKU_PATTERN_LENGTH}}$`;
export const IMEI_LENGTH = 15;

/** A rule as the evaluation reads it (shared/api/serial-rules.ts validates it). */
export type SerialRuleLike = { sku_pattern: string; kind: 'imei' } | { sku_pattern: string; kind: 'text'; min_length: number; max_length: number };

/** The SKU pattern as a regular expression: the whole SKU, without regard to case. */
export function skuPatternRegExp(pattern: string): RegExp {
  const source = [...pattern].map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 'is');
}

/** Whether `sku` matches the glob `pattern` (`PHONE-*`, `TAB-??-*`), whole and without regard to case. */
export function skuMatches(pattern: string, sku: string): boolean {
  return skuPatternRegExp(pattern).test(sku.trim());
}

/** The first rule whose pattern matches the SKU: the unit needs its serial, of that kind. Null: none needed. */
export function serialRuleFor<R extends SerialRuleLike>(rules: readonly R[], sku: string | null): R | null {
  if (sku === null || sku.trim() === '') return null;
  return rules.find((rule) => skuMatches(rule.sku_pattern, sku)) ?? null;
}

/** The Luhn check of a string of digits (the IMEI's last digit checks the 14 before it). */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A serial as scanned or typed, for recording: white space around it dropped. */
export function cleanSerial(raw: string): string {
  return raw.trim();
}

/** Two serials are the same unit's without regard to case (a typed `ab12` is the label's `AB12`). */
export function serialKey(serial: string): string {
  return cleanSerial(serial).toUpperCase();
}

/** Why `serial` is not a serial this rule takes, in words; null when it is. */
export function serialProblem(rule: SerialRuleLike, raw: string): string | null {
  const serial = cleanSerial(raw);
  if (!new RegExp(SERIAL_PATTERN).test(serial)) {
    return serial === ''
      ? 'Scan or type the serial.'
      : `A serial is 1–${MAX_SERIAL_LENGTH} letters, digits or signs without spaces: "${serial.slice(0, 40)}" is not one.`;
  }
  if (rule.kind === 'imei') {
    if (!/^[0-9]+$/.test(serial)) return `An IMEI is 15 digits: ${serial} has other characters.`;
    if (serial.length !== IMEI_LENGTH) return `An IMEI is 15 digits: ${serial} has ${serial.length}.`;
    if (!luhnValid(serial)) return `${serial} is not a valid IMEI: its check digit is wrong. Scan the IMEI barcode again or check the number.`;
    return null;
  }
  if (serial.length < rule.min_length || serial.length > rule.max_length) {
    const bounds = rule.min_length === rule.max_length ? `${rule.min_length}` : `${rule.min_length}–${rule.max_length}`;
    return `This serial must have ${bounds} characters: ${serial} has ${serial.length}.`;
  }
  return null;
}

/** The serial a line item's tags carry (`serial:<value>`), or null. */
export function serialOfTags(tags: readonly string[]): string | null {
  const tag = tags.find((t) => t.startsWith(SERIAL_TAG_PREFIX) && t.length > SERIAL_TAG_PREFIX.length);
  return tag === undefined ? null : tag.slice(SERIAL_TAG_PREFIX.length);
}

/** `tags` without any serial tag, then the serial's (replaced, never added twice; the worker's other tags kept). */
export function withSerialTag(tags: readonly string[], serial: string | null): string[] {
  const own = tags.filter((t) => !t.startsWith(SERIAL_TAG_PREFIX));
  if (serial !== null) own.push(`${SERIAL_TAG_PREFIX}${serial}`);
  return own;
}
