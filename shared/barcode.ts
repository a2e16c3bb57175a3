/*
 * Scan normalisation: what a hardware or camera scan of a parcel label means.
 *
 * 1. Normalise: drop an AIM symbology prefix some scanners send (`]C1`, `]E0`, `]Q3` …), drop all
 *    white space and control characters (GS1 group separators included), upper-case.
 *      " 1z 999 aa1 0123456784\n" → "1Z999AA10123456784"
 * 2. Candidates to look up, most likely first, the normalised code always last-resort included:
 *    - USPS IMpb labels encode `420` + destination ZIP (5 digits, or ZIP+4: 9 digits) before the
 *      tracking number, which starts with 9 and has 20–34 digits (22 typically):
 *        "420100019400111899223033005158" → "9400111899223033005158" (then the full code)
 *        "4201000112349400111899223033005158" → "9400111899223033005158"
 *      Both ZIP lengths are tried when both fit.
 *    - FedEx long 1D barcodes end in the tracking number: an all-digit code of 32 or 34 digits, or
 *      22 digits starting with `96` (FedEx Ground "96" barcode), yields its last 15 and last 12
 *      digits (Ground/SmartPost 15-digit or Express 12-digit tracking numbers):
 *        "9612804012345678901234" → "012345678901234", "345678901234" (then the full code)
 * Codes that match no rule (UPS `1Z…`, DHL, returns by id, email or SKU) have one candidate: the
 * normalised code. Because of the upper-casing, lookups of candidates (tracking numbers, emails,
 * SKUs) compare case-insensitively.
 */

export interface NormalisedScan {
  /** The scan after normalisation. */
  code: string;
  /** Codes to look up, most likely first; unique; always includes `code`. */
  candidates: string[];
}

const AIM_PREFIX_RE = /^\][A-Za-z][0-9A-Za-z]/;

/** White space (Unicode spaces included), C0/C1 control characters, zero-width space and BOM. */
function isDropped(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x200b || code === 0xfeff || /\s/u.test(char);
}

/** Trim, drop spaces, control characters and an AIM symbology prefix, upper-case. */
export function normaliseCode(raw: string): string {
  let code = '';
  for (const char of raw) if (!isDropped(char)) code += char;
  return code.replace(AIM_PREFIX_RE, '').toUpperCase();
}

const USPS_ROUTED_RE = [/^420(\d{5})(9\d{19,33})$/, /^420(\d{9})(9\d{19,33})$/] as const;

/** Tracking numbers inside a USPS `420`+ZIP label barcode (ZIP+4 first: the longer routing code). */
export function uspsCandidates(code: string): string[] {
  const out: string[] = [];
  for (const re of [USPS_ROUTED_RE[1], USPS_ROUTED_RE[0]]) {
    const m = re.exec(code);
    if (m?.[2] !== undefined) out.push(m[2]);
  }
  return out;
}

/** Tracking numbers at the end of a FedEx long barcode (last 15 digits, then last 12). */
export function fedexCandidates(code: string): string[] {
  if (!/^\d+$/.test(code)) return [];
  const long = code.length === 32 || code.length === 34 || (code.length === 22 && code.startsWith('96'));
  if (!long) return [];
  return [code.slice(-15), code.slice(-12)];
}

/** Normalises a scan and lists the codes it may stand for. */
export function normaliseScan(raw: string): NormalisedScan {
  const code = normaliseCode(raw);
  const candidates: string[] = [];
  const add = (c: string) => {
    if (c !== '' && !candidates.includes(c)) candidates.push(c);
  };
  for (const c of uspsCandidates(code)) add(c);
  // A USPS routed code (starting 420) is not a FedEx barcode.
  if (candidates.length === 0) for (const c of fedexCandidates(code)) add(c);
  add(code);
  return { code, candidates };
}
