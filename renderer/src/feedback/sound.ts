/*
 * Distinct beeps that a worker learns by ear: success is one short high tone, warning two mid tones,
 * error one long low buzz, pending (kept, sent when the station answers) two soft rising notes,
 * defective (F3 marked an item) three quick falling notes — its own, never the wrong-item warning;
 * a parcel off its weight a low-high-low siren, unlike any other.
 * WebAudio tones need no sound files (nothing to load, nothing to fetch).
 */

import type { Disposition } from '#shared/dispositions.ts';

export type Tone = 'success' | 'warning' | 'error' | 'pending' | 'defective';

type Wave = 'sine' | 'square' | 'sawtooth' | 'triangle';

/** The part of WebAudio the tones use, typed here so the UI's logic also type-checks in Node-run tests. */
interface ToneAudio {
  state: string;
  currentTime: number;
  destination: object;
  resume(): Promise<void>;
  createOscillator(): {
    type: Wave;
    frequency: { value: number };
    connect(node: object): { connect(node: object): unknown };
    start(at: number): void;
    stop(at: number): void;
  };
  createGain(): { gain: { setValueAtTime(v: number, at: number): void; exponentialRampToValueAtTime(v: number, at: number): void } };
}

export const TONE_PATTERNS: Record<Tone, readonly { freq: number; ms: number; gapMs: number; type: Wave }[]> = {
  success: [{ freq: 1760, ms: 90, gapMs: 0, type: 'sine' }],
  warning: [
    { freq: 880, ms: 110, gapMs: 70, type: 'square' },
    { freq: 880, ms: 110, gapMs: 0, type: 'square' },
  ],
  error: [{ freq: 220, ms: 450, gapMs: 0, type: 'sawtooth' }],
  defective: [
    { freq: 1320, ms: 60, gapMs: 30, type: 'sine' },
    { freq: 990, ms: 60, gapMs: 30, type: 'sine' },
    { freq: 660, ms: 90, gapMs: 0, type: 'sine' },
  ],
  pending: [
    { freq: 660, ms: 80, gapMs: 40, type: 'triangle' },
    { freq: 990, ms: 80, gapMs: 0, type: 'triangle' },
  ],
};

/**
 * Each disposition's own tone, heard with the disposition as a condition key sets it: the worker
 * knows where the unit goes without looking up. Rising for the shelf, falling for the way out.
 */
export const DISPOSITION_PATTERNS: Record<Disposition, readonly { freq: number; ms: number; gapMs: number; type: Wave }[]> = {
  restock: [
    { freq: 1320, ms: 70, gapMs: 30, type: 'sine' },
    { freq: 1760, ms: 90, gapMs: 0, type: 'sine' },
  ],
  refurbish: [
    { freq: 990, ms: 70, gapMs: 30, type: 'triangle' },
    { freq: 1320, ms: 70, gapMs: 30, type: 'triangle' },
    { freq: 990, ms: 70, gapMs: 0, type: 'triangle' },
  ],
  return_to_vendor: [
    { freq: 740, ms: 140, gapMs: 40, type: 'triangle' },
    { freq: 740, ms: 140, gapMs: 0, type: 'triangle' },
  ],
  liquidate: [
    { freq: 880, ms: 80, gapMs: 30, type: 'square' },
    { freq: 660, ms: 110, gapMs: 0, type: 'square' },
  ],
  quarantine: [
    { freq: 587, ms: 80, gapMs: 40, type: 'square' },
    { freq: 587, ms: 80, gapMs: 40, type: 'square' },
    { freq: 587, ms: 80, gapMs: 0, type: 'square' },
  ],
  dispose: [
    { freq: 440, ms: 120, gapMs: 30, type: 'sawtooth' },
    { freq: 294, ms: 180, gapMs: 0, type: 'sawtooth' },
  ],
};

/** A parcel lighter or heavier than it should weigh: low-high-low, twice as long as a warning. */
const OFF_WEIGHT_PATTERN: readonly { freq: number; ms: number; gapMs: number; type: Wave }[] = [
  { freq: 330, ms: 160, gapMs: 20, type: 'square' },
  { freq: 660, ms: 160, gapMs: 20, type: 'square' },
  { freq: 330, ms: 220, gapMs: 0, type: 'square' },
];

let context: ToneAudio | null = null;

export function playOffWeightTone(): void {
  play(OFF_WEIGHT_PATTERN);
}

export function playDispositionTone(disposition: Disposition): void {
  play(DISPOSITION_PATTERNS[disposition]);
}

export function playTone(tone: Tone): void {
  play(TONE_PATTERNS[tone]);
}

function play(pattern: readonly { freq: number; ms: number; gapMs: number; type: Wave }[]): void {
  try {
    const AudioContextClass = (globalThis as { AudioContext?: new () => ToneAudio }).AudioContext;
    if (!AudioContextClass) return;
    context ??= new AudioContextClass();
    const ctx = context;
    if (ctx.state === 'suspended') void ctx.resume();
    let at = ctx.currentTime;
    for (const step of pattern) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = step.type;
      osc.frequency.value = step.freq;
      gain.gain.setValueAtTime(0.18, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + step.ms / 1000);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + step.ms / 1000);
      at += (step.ms + step.gapMs) / 1000;
    }
  } catch {
    // No audio device: the colours still say it.
  }
}
