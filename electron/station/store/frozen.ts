/**
 * A value no caller can change: every object and array in it is read-only in its type and frozen
 * at run time, so a write to it fails loudly (a TypeError in strict code) instead of changing a
 * record the engine holds. See docs/decisions/store-interface.md.
 */
export type Frozen<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer U>
    ? ReadonlyArray<Frozen<U>>
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T;

/**
 * Freezes `value` and everything in it, once: a frozen object is taken as frozen all through (only
 * this function freezes the engine's records), so a record read again costs one `Object.isFrozen`.
 */
export function deepFreeze<T>(value: T): Frozen<T> {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value as Frozen<T>;
}
