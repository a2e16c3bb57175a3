import { inStationUnit } from '#shared/api/scale.ts';
import { splitFrames, type ScaleAnswer, type ScaleProtocolCodec } from './answer.ts';

/*
 * The NCI serial protocol (Weigh-Tronix / Avery Weigh-Tronix SCP-01, spoken by most shipping and
 * bench scales): the weight request `W<CR>` is answered
 *   <LF>xxxx.xxuu<CR><LF>hh…<CR><ETX>
 * the weight as the display shows it (minus sign included, out-of-range characters when it is over
 * or under) with its unit, then two or more status bytes. Status byte 1: bit 0 in motion, bit 1 at
 * zero, bit 2 RAM error, bit 3 EEPROM error; byte 2: bit 0 under capacity, bit 1 over capacity,
 * bit 2 ROM error, bit 3 faulty calibration; bits 4 and 5 are always 1, bit 7 is parity. A weight
 * in pounds and ounces reads `xxlb xx.xoz`. An unknown command is answered `<LF>?<CR><ETX>`.
 */

const ETX = [0x03];
/** Bit 7 is the parity bit of a 7-bit line: the station reads 8 bits and drops it. */
const text = (bytes: Uint8Array): string => String.fromCharCode(...bytes.map((b) => b & 0x7f));

const FRAME = /^\n(.*)\r\n([\x30-\x3f][\x30-\x7f]*)\r$/s;
const DECIMAL = /^\s*(-?)\s*(\d+(?:\.\d*)?|\.\d+)\s*([A-Za-z]{1,3})\s*$/;
const POUNDS_OUNCES = /^\s*(-?)\s*(\d+)\s*lb\s+(\d+(?:\.\d*)?)\s*oz\s*$/i;

/** Status bytes carry 0011 in their high nibble (bits 4 and 5 set, bit 6 of byte 1 clear). */
const isStatusByte = (code: number): boolean => (code & 0x30) === 0x30;

export function parseNciAnswer(frame: Uint8Array): ScaleAnswer {
  const answer = text(frame);
  if (answer === '\n?\r') return { kind: 'refused', why: 'it did not know the weight request' };
  const parts = FRAME.exec(answer);
  if (!parts) return { kind: 'garbled' };
  const [, display, status] = parts as unknown as [string, string, string];
  const codes = [...status].map((c) => c.charCodeAt(0));
  const [byte1, byte2] = codes as [number, number | undefined];
  if (byte2 === undefined || !codes.every(isStatusByte)) return { kind: 'garbled' };
  if (byte2 & 0b10) return { kind: 'overload' };
  if (byte2 & 0b01) return { kind: 'underload' };
  if (byte1 & 0b1100 || byte2 & 0b1100) return { kind: 'fault', why: 'it reports an error of its own (memory or calibration): have it serviced' };
  const stable = (byte1 & 0b1) === 0;
  const poundsOunces = POUNDS_OUNCES.exec(display);
  if (poundsOunces) {
    const [, sign, pounds, ounces] = poundsOunces as unknown as [string, string, string, string];
    return { kind: 'weight', stable, value: (sign ? -1 : 1) * (Number(pounds) * 16 + Number(ounces)), unit: 'oz' };
  }
  const decimal = DECIMAL.exec(display);
  if (!decimal) return { kind: 'garbled' };
  const [, sign, digits, unitText] = decimal as unknown as [string, string, string, string];
  const inUnit = inStationUnit(Number(`${sign}${digits}`), unitText);
  if (!inUnit) return { kind: 'fault', why: `it weighs in ${unitText}, a unit the station does not record (set it to kg, g, lb or oz)` };
  return { kind: 'weight', stable, ...inUnit };
}

export const NCI: ScaleProtocolCodec = {
  request: new TextEncoder().encode('W\r'),
  frames: (buffer) => splitFrames(buffer, ETX),
  parse: parseNciAnswer,
};
