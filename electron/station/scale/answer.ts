import type { WeightUnit } from '#shared/api/scale.ts';

/*
 * What one answer of a scale says, whatever its protocol: the protocols' parsers (mt-sics.ts, nci.ts)
 * turn a frame into one of these, and the read (read.ts) decides from them whether to ask again.
 */
export type ScaleAnswer =
  | { kind: 'weight'; stable: boolean; value: number; unit: WeightUnit }
  | { kind: 'overload' }
  | { kind: 'underload' }
  /** The scale cannot answer now (MT-SICS `S I`: busy, or it did not settle in its own time). */
  | { kind: 'busy' }
  /** The scale reports a fault of its own (a memory or calibration error), or a unit the station does not weigh in. */
  | { kind: 'fault'; why: string }
  /** The scale refused the command (MT-SICS `ES`/`ET`/`EL`, NCI `?`): it speaks the protocol, not this command. */
  | { kind: 'refused'; why: string }
  /** Bytes that are not an answer of the protocol. */
  | { kind: 'garbled' };

/** A serial protocol: the bytes that ask for the weight, where an answer ends, and what it says. */
export interface ScaleProtocolCodec {
  /** The weight request. */
  readonly request: Uint8Array;
  /** Splits the bytes received so far into complete frames and the rest (an unfinished frame). */
  frames(buffer: Uint8Array): { frames: Uint8Array[]; rest: Uint8Array };
  parse(frame: Uint8Array): ScaleAnswer;
}

/** Splits `buffer` after each `end` byte sequence (the end is dropped from the frame). */
export function splitFrames(buffer: Uint8Array, end: readonly number[]): { frames: Uint8Array[]; rest: Uint8Array } {
  const frames: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i + end.length <= buffer.length; i++) {
    if (end.every((byte, k) => buffer[i + k] === byte)) {
      frames.push(buffer.subarray(start, i));
      i += end.length - 1;
      start = i + 1;
    }
  }
  return { frames, rest: buffer.subarray(start) };
}
