import type { PackageSlip, UnitLabel } from '#shared/api/printing.ts';

/*
 * ZPL II, the language of warehouse label printers, as plain text (docs/decisions/labels-and-print-queue.md).
 * A small builder rather than a library: the maintained generator on npm (jszpl) lays labels out
 * with its own grid and units; a fixed label is a few `^FO` positions, and what matters is that
 * field data can never be read as a command, which `fieldData` below makes sure of (`^FH` hex).
 *
 * Labels are 4 × 2 in at 203 dpi (812 × 406 dots), the common thermal label.
 */

export const LABEL_WIDTH_DOTS = 812;
export const LABEL_HEIGHT_DOTS = 406;

/**
 * A field's data with `^FH_` in force: `^`, `~`, `_` and control characters become `_XX` (hex of
 * the UTF-8 bytes, as ^CI28 reads them), so no text a person typed can end the field or start a
 * command. Everything else is UTF-8 as it is.
 */
export function fieldData(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '^' || char === '~' || char === '_' || code < 0x20 || code === 0x7f) {
      for (const byte of Buffer.from(char, 'utf8')) out += `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    } else out += char;
  }
  return out;
}

/** Code 128 data for `^BC`: `>` starts an invocation code there, so a literal one is `><`. */
export function code128Data(text: string): string {
  return fieldData(text).replaceAll('>', '><');
}

/** At most `max` characters (code points), the last one an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/**
 * Font 0's widest printable ASCII glyphs (W, @, %) advance about 0.83 of the font's width (measured
 * with an independent ZPL renderer, test/unit/label-layout.test.ts); 0.9 leaves room for a
 * printer's own font being a little wider.
 */
const WIDEST_GLYPH = 0.9;

/** The font width (dots, at most `height`) at which any `chars` characters fit `room` dots. */
export function fittedWidth(height: number, room: number, chars: number): number {
  return Math.max(10, Math.min(height, Math.floor(room / (Math.max(1, chars) * WIDEST_GLYPH))));
}

/** One label's commands, in order; `toString()` is the label from `^XA` to `^XZ`. */
export class ZplLabel {
  readonly #commands: string[] = [];

  constructor(options: { widthDots: number; heightDots: number }) {
    // UTF-8 text, the label's size, the home at the corner.
    this.#commands.push('^XA', '^CI28', `^PW${options.widthDots}`, `^LL${options.heightDots}`, '^LH0,0');
  }

  /** Text in the scalable font 0 at (x, y), `height` dots high and `width` dots wide (default: as high). */
  text(x: number, y: number, height: number, text: string, width = height): this {
    this.#commands.push(`^FO${x},${y}^A0N,${height},${width}^FH_^FD${fieldData(text)}^FS`);
    return this;
  }

  /**
   * Text that must be read whole (a bin, a disposition): `height` dots high, its characters made
   * narrower until the widest possible text of its length fits `room` dots. Never cut.
   */
  wholeText(x: number, y: number, height: number, room: number, text: string): this {
    return this.text(x, y, height, text, fittedWidth(height, room, [...text].length));
  }

  /** A Code 128 barcode at (x, y): bars `height` dots high, `module` dots per narrow bar, the text printed beneath. */
  code128(x: number, y: number, height: number, module: number, data: string): this {
    this.#commands.push(`^FO${x},${y}^BY${module},3,${height}^BCN,${height},Y,N,N^FH_^FD${code128Data(data)}^FS`);
    return this;
  }

  /** A filled box (a rule when thin). */
  box(x: number, y: number, width: number, height: number, thickness: number): this {
    this.#commands.push(`^FO${x},${y}^GB${width},${height},${thickness}^FS`);
    return this;
  }

  toString(): string {
    return `${[...this.#commands, '^XZ'].join('\n')}\n`;
  }
}

const MARGIN_DOTS = 30;
/** Where the bin's value starts: after its `BIN` caption. */
const BIN_VALUE_X = 100;

/**
 * The unit label: the unit id as a Code 128 barcode with its text; the bin, whole and largest (what
 * the picker reads first: any bin the rules allow, up to 20 characters, fits by narrowing the
 * font); the disposition's name, whole (up to 40 characters); then the facts.
 */
export function unitLabelZpl(label: UnitLabel): string {
  const zpl = new ZplLabel({ widthDots: LABEL_WIDTH_DOTS, heightDots: LABEL_HEIGHT_DOTS });
  const room = LABEL_WIDTH_DOTS - 2 * MARGIN_DOTS;
  zpl.code128(MARGIN_DOTS, 16, 90, 3, label.unit_id);
  zpl.text(MARGIN_DOTS, 168, 30, 'BIN');
  zpl.wholeText(BIN_VALUE_X, 146, 68, LABEL_WIDTH_DOTS - MARGIN_DOTS - BIN_VALUE_X, label.bin ?? 'NONE');
  zpl.wholeText(MARGIN_DOTS, 214, 40, room, label.disposition ?? 'No disposition');
  zpl.box(MARGIN_DOTS, 256, room, 2, 2);
  // The facts: cut at a length, and narrowed when even that is wider than the label.
  zpl.wholeText(MARGIN_DOTS, 264, 24, room, clip(`SKU ${label.sku ?? '-'}   ${label.condition ?? 'condition not set'}`, 50));
  // The serial whole (at most 33 characters): what a person compares with the unit in hand.
  if (label.serial != null) zpl.wholeText(MARGIN_DOTS, 290, 22, room, `SN ${label.serial}`);
  zpl.wholeText(MARGIN_DOTS, 316, 22, room, clip(label.name ?? '', 50));
  zpl.wholeText(MARGIN_DOTS, 342, 22, room, clip(`Parcel ${label.tracking_number ?? '-'}`, 52));
  zpl.wholeText(MARGIN_DOTS, 368, 22, room, clip(`${label.date}   ${label.worker ?? ''}`, 52));
  return zpl.toString();
}

/** The package slip: the tracking number as a barcode, then the units one a line (as many as fit). */
export function packageSlipZpl(slip: PackageSlip): string {
  const zpl = new ZplLabel({ widthDots: LABEL_WIDTH_DOTS, heightDots: LABEL_HEIGHT_DOTS });
  zpl.code128(30, 20, 80, 2, slip.tracking_number);
  zpl.text(30, 135, 28, clip(`Package ${slip.return_package_id}   ${slip.units.length} unit(s)   ${slip.date}   ${slip.worker ?? ''}`, 50));
  const shown = slip.units.slice(0, 6);
  shown.forEach((unit, i) => {
    // The bin first: a line too long is cut at its end, never in the bin.
    zpl.text(30, 172 + i * 32, 24, clip(`${unit.bin ?? '-'}  ${unit.unit_id}  ${unit.disposition ?? '-'}  ${unit.sku ?? '-'}`, 56));
  });
  if (slip.units.length > shown.length) zpl.text(30, 172 + shown.length * 32, 24, `+ ${slip.units.length - shown.length} more`);
  return zpl.toString();
}
