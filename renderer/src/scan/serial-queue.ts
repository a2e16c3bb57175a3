/*
 * Scans are handled strictly one after another, in arrival order: a scan that arrives while the
 * previous one is still being looked up waits its turn, so none is lost, reordered or counted twice.
 */

export interface SerialQueue<T> {
  push(item: T): void;
  /** Items waiting or in progress. */
  readonly size: number;
  /** Resolves once everything pushed so far has been handled. */
  idle(): Promise<void>;
}

export function createSerialQueue<T>(handle: (item: T) => Promise<void> | void, onError: (error: unknown, item: T) => void): SerialQueue<T> {
  let tail: Promise<void> = Promise.resolve();
  let size = 0;
  return {
    push(item) {
      size++;
      tail = tail
        .then(() => handle(item))
        .catch((error: unknown) => onError(error, item))
        .finally(() => {
          size--;
        });
    },
    get size() {
      return size;
    },
    idle: () => tail,
  };
}
