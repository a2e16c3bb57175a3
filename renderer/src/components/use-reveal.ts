import { type RefObject, useEffect, useRef } from 'react';

/**
 * A ref whose element is scrolled into view whenever `shown` changes to something: an outcome that
 * appears below the fold of a dock's 600 px screen is brought up rather than left under the key bar.
 */
export function useReveal<T extends HTMLElement>(shown: unknown): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (shown) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [shown]);
  return ref;
}
