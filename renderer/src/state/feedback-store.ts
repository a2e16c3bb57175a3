import { create } from 'zustand';
import { playTone, type Tone } from '../feedback/sound.ts';
import { type Screen, useNav } from './nav-store.ts';
import { readSetting, writeSetting } from './settings.ts';

/*
 * The one line of feedback under the scan field: the latest outcome in its colour, with a sound
 * unless the worker turned sound off. Never a dialog: the next scan simply replaces it. A notice
 * belongs to the screen that made it: "Received …" is not shown on the lists, Today or Sync.
 */

export interface Notice {
  tone: Tone;
  message: string;
  /** Increments on every notice, so the same text twice still re-announces. */
  seq: number;
  /** The screen it was made on. */
  screen: Screen;
}

/** The receiving screens are one place for notices: a scan on one opens the next (scan → package, → register; F2 → scan). */
const DOCK: ReadonlySet<Screen> = new Set(['scan', 'package', 'register']);

/** Whether a notice is shown on `screen`: on the screen it was made on, or anywhere at the dock when made there. */
export function noticeShownOn(notice: Notice, screen: Screen): boolean {
  return notice.screen === screen || (DOCK.has(notice.screen) && DOCK.has(screen));
}

interface FeedbackState {
  notice: Notice | null;
  soundOn: boolean;
  /** `sound`: played instead of the tone's own (a disposition's tone). */
  notify(tone: Tone, message: string, sound?: () => void): void;
  setSound(on: boolean): void;
  clear(): void;
}

export const useFeedback = create<FeedbackState>()((set, get) => ({
  notice: null,
  soundOn: readSetting('sound', 'on') !== 'off',
  notify(tone, message, sound) {
    const seq = (get().notice?.seq ?? 0) + 1;
    set({ notice: { tone, message, seq, screen: useNav.getState().screen } });
    if (get().soundOn) (sound ?? (() => playTone(tone)))();
  },
  setSound(on) {
    writeSetting('sound', on ? 'on' : 'off');
    set({ soundOn: on });
  },
  clear() {
    set({ notice: null });
  },
}));

export const notify = (tone: Tone, message: string, sound?: () => void): void => useFeedback.getState().notify(tone, message, sound);
