/**
 * Runs `task` at most once at a time. A call while a run is under way does not start another: the
 * calls made meanwhile share one run after it, which starts after every one of them was made, so
 * each caller gets a result at least as fresh as its call. A failed run fails only its callers.
 */
export function oneAtATime<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let following: Promise<T> | undefined;
  const call = (): Promise<T> => {
    if (!running) {
      running = task().finally(() => (running = undefined));
      return running;
    }
    following ??= running
      .catch(() => undefined)
      .then(() => {
        following = undefined;
        return call();
      });
    return following;
  };
  return call;
}
