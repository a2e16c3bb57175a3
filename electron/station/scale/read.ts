import type { Duplex } from 'node:stream';
import {
  SCALE_PROTOCOL_NAMES,
  SCALE_SAYS,
  type ScaleReadState,
  type ScaleReading,
  stationScaleName,
  type StationScale,
  type WeightUnit,
} from '#shared/api/scale.ts';
import type { ScaleAnswer, ScaleProtocolCodec } from './answer.ts';
import { LinkRefused, openLink, type OpenLink } from './link.ts';
import { MT_SICS } from './mt-sics.ts';
import { NCI } from './nci.ts';

/*
 * One read of a station scale (serial or network): open the link, ask for the weight, ask again
 * while the scale moves, and answer the first stable weight — or say plainly why there is none
 * (still moving when the time ran out, over or under its range, no answer, the cable pulled during
 * the read, bytes that are not the protocol). The link is closed after every read: a scale is
 * asked only when a parcel is weighed, and a port left open would hold a USB adapter that was
 * pulled and plugged in again.
 */

const CODECS: Readonly<Record<StationScale['protocol'], ScaleProtocolCodec>> = { mt_sics: MT_SICS, nci: NCI };

export interface ReadTiming {
  /** Opening the port or connection. */
  connectMs: number;
  /** One answer, from the request to its last byte. */
  answerMs: number;
  /** How long a moving scale may take to settle before the read says it did not. */
  settleMs: number;
  /** The pause between two requests while the scale moves. */
  pollMs: number;
}

export const READ_TIMING: ReadTiming = { connectMs: 3000, answerMs: 1500, settleMs: 4000, pollMs: 150 };

export async function readScale(scale: StationScale, timing: ReadTiming = READ_TIMING, open: OpenLink = openLink): Promise<ScaleReading> {
  const name = stationScaleName(scale);
  const say = (state: ScaleReadState, message: string, weight: { value: number; unit: WeightUnit } | null = null): ScaleReading => ({
    state,
    weight: weight?.value ?? null,
    unit: weight?.unit ?? null,
    message,
    scale: name,
  });
  let link: Duplex;
  try {
    link = await open(scale, timing.connectMs);
  } catch (error) {
    return say('not_connected', error instanceof LinkRefused ? error.message : `The scale could not be opened: ${(error as Error).message}`);
  }
  const answers = new AnswerStream(link, CODECS[scale.protocol]);
  try {
    const deadline = Date.now() + timing.settleMs;
    let moving: { value: number; unit: WeightUnit } | null = null;
    let busy = false;
    let garbled = false;
    for (;;) {
      const next = await answers.ask(timing.answerMs);
      if (next.kind === 'closed') return say('disconnected', "The scale's link went down during the read: is its cable plugged in, and the scale on?");
      if (next.kind === 'silent') {
        if (next.bytes) return say('garbled', garbledMessage(scale));
        return say(
          'no_answer',
          `The scale did not answer (${name}): is it on, and set to ${scale.kind === 'serial' ? `${scale.baud_rate} baud and ` : ''}this protocol?`,
        );
      }
      const answer: ScaleAnswer = next.answer;
      switch (answer.kind) {
        case 'weight':
          if (answer.stable && answer.value < 0) return say('underload', SCALE_SAYS.underload);
          if (answer.stable) return say('stable', SCALE_SAYS.stable(answer), answer);
          moving = answer;
          break;
        case 'overload':
          return say('overload', SCALE_SAYS.overload);
        case 'underload':
          return say('underload', SCALE_SAYS.underload);
        case 'fault':
          return say('fault', SCALE_SAYS.fault(answer.why));
        case 'refused':
          return say('garbled', `The scale answered, but ${answer.why}: is it set to ${SCALE_PROTOCOL_NAMES[scale.protocol]}?`);
        case 'busy':
          busy = true;
          break;
        case 'garbled':
          garbled = true;
          break;
      }
      if (Date.now() + timing.pollMs >= deadline) {
        if (moving) return say('in_motion', SCALE_SAYS.notSteady(timing.settleMs), moving);
        if (busy)
          return say('in_motion', `The scale did not settle (it answered "busy" for ${timing.settleMs / 1000} s): let the parcel rest and weigh again.`);
        if (garbled) return say('garbled', garbledMessage(scale));
      }
      await new Promise((resolve) => setTimeout(resolve, timing.pollMs));
    }
  } finally {
    answers.close();
  }
}

function garbledMessage(scale: StationScale): string {
  const protocol = SCALE_PROTOCOL_NAMES[scale.protocol];
  return `The scale sends bytes that are not ${protocol}: check the protocol${scale.kind === 'serial' ? ` and the baud rate (${scale.baud_rate})` : ''} set on the scale and here.`;
}

type Next = { kind: 'answer'; answer: ScaleAnswer } | { kind: 'silent'; bytes: boolean } | { kind: 'closed' };

/** Requests and answers over one link: frames as they complete, the link's end noticed at once. */
class AnswerStream {
  #buffer = new Uint8Array(0);
  #frames: Uint8Array[] = [];
  #closed = false;
  #bytesSinceAsk = false;
  #wake: (() => void) | null = null;
  private readonly link: Duplex;
  private readonly codec: ScaleProtocolCodec;

  constructor(link: Duplex, codec: ScaleProtocolCodec) {
    this.link = link;
    this.codec = codec;
    link.on('data', (chunk: Buffer) => {
      this.#bytesSinceAsk = true;
      const joined = new Uint8Array(this.#buffer.length + chunk.length);
      joined.set(this.#buffer);
      joined.set(chunk, this.#buffer.length);
      const { frames, rest } = codec.frames(joined);
      // A link that never ends a frame must not grow without bound: keep its last 4 KiB.
      this.#buffer = rest.length > 4096 ? rest.slice(rest.length - 4096) : rest.slice();
      this.#frames.push(...frames);
      this.#wake?.();
    });
    const end = () => {
      this.#closed = true;
      this.#wake?.();
    };
    link.on('close', end);
    link.on('end', end);
    link.on('error', end);
  }

  /** Sends the weight request and waits for the next frame, the link's end, or silence. */
  async ask(timeoutMs: number): Promise<Next> {
    // What an earlier request left behind (a late answer, noise) is not this request's answer.
    this.#frames = [];
    this.#buffer = new Uint8Array(0);
    this.#bytesSinceAsk = false;
    if (this.#closed) return { kind: 'closed' };
    this.link.write(this.codec.request);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = this.#frames.shift();
      if (frame) return { kind: 'answer', answer: this.codec.parse(frame) };
      if (this.#closed) return { kind: 'closed' };
      const left = deadline - Date.now();
      if (left <= 0) return { kind: 'silent', bytes: this.#bytesSinceAsk };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  close(): void {
    this.link.removeAllListeners('data');
    // A late error of a closing link (a pulled cable) is this read's, already answered.
    this.link.on('error', () => undefined);
    this.link.destroy();
  }
}

let turn: Promise<unknown> = Promise.resolve();

/** Reads in turn, one at a time: two reads at once would fight over one serial port (the second refused as busy). */
export function readScaleInTurn(scale: StationScale): Promise<ScaleReading> {
  const mine = turn.then(() => readScale(scale));
  turn = mine.catch(() => undefined);
  return mine;
}
