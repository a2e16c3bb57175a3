import { inStationUnit } from '#shared/api/scale.ts';
import { splitFrames, type ScaleAnswer, type ScaleProtocolCodec } from './answer.ts';

/*
 * Mettler Toledo's MT-SICS (Standard Interface Command Set), level 0, as its reference manual
 * describes it: a command is upper-case ASCII closed by CR LF, and so is every answer. The station
 * asks `SI` (the weight now, stable or not) and asks again while the scale moves, so a worker hears
 * "not steady" rather than waiting on `S` (which answers only once stable). Answers to `SI`:
 *   `S S <value> <unit>`  stable weight       `S D <value> <unit>`  dynamic (in motion)
 *   `S +`  overload     `S -`  underload     `S I`  command not executable now (busy)
 *   `ES` / `ET` / `EL`  syntax, transmission or logical error (the general error answers)
 * The value is right-aligned in its field with its sign directly before it; the unit follows.
 */

const CR_LF = [0x0d, 0x0a];
const ascii = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

const WEIGHT = /^S\s+([SD])\s+(-?)\s*(\d+(?:\.\d*)?|\.\d+)\s+([A-Za-z]{1,5})\s*$/;
const STATUS = /^S\s+([+\-I])\s*$/;
const ERRORS: Readonly<Record<string, string>> = {
  ES: 'it did not know the command (syntax error)',
  ET: 'the command reached it garbled (transmission error: check the baud rate)',
  EL: 'it could not carry the command out (logical error)',
};

export function parseSicsAnswer(frame: Uint8Array): ScaleAnswer {
  // A scale that ends its lines with LF alone, or sends an LF before its CR LF, is read the same.
  const line = ascii(frame).replace(/^\n+|\r+$/g, '');
  const weight = WEIGHT.exec(line);
  if (weight) {
    const [, status, sign, digits, unitText] = weight as unknown as [string, string, string, string, string];
    const value = Number(`${sign}${digits}`);
    const inUnit = inStationUnit(value, unitText);
    if (!inUnit) return { kind: 'fault', why: `it weighs in ${unitText}, a unit the station does not record (set it to kg, g, lb or oz)` };
    return { kind: 'weight', stable: status === 'S', ...inUnit };
  }
  const status = STATUS.exec(line)?.[1];
  if (status === '+') return { kind: 'overload' };
  if (status === '-') return { kind: 'underload' };
  if (status === 'I') return { kind: 'busy' };
  const error = ERRORS[line.trim()];
  if (error) return { kind: 'refused', why: error };
  return { kind: 'garbled' };
}

export const MT_SICS: ScaleProtocolCodec = {
  request: new TextEncoder().encode('SI\r\n'),
  frames: (buffer) => splitFrames(buffer, CR_LF),
  parse: parseSicsAnswer,
};
