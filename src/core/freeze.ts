// Freezing events for the chain: a dispatched event is a frozen shallow copy whose nested plain
// objects and arrays are frozen in place (class instances — an AbortSignal, a Buffer — are
// left as they are). Kept apart from chain.ts so the continuation there reads on one screen.

type Ev = { readonly type: string } & Record<string, unknown>;

/** A frozen shallow copy whose nested plain objects and arrays are frozen in place.
 *  (Object.assign, not spread: V8 caches the frozen shape of assigned objects, which makes
 *  this ~8× cheaper; see bench/chain.mjs.) */
export function freezeEvent<E extends Ev>(e: E): E {
  return deepFreeze(Object.assign({}, e)) as E;
}

function deepFreeze(value: object): object {
  if (Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== null && typeof v === "object" && isPlain(v)) deepFreeze(v);
  }
  return value;
}

function isPlain(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** A short printable form of a value, for reports. */
export function preview(v: unknown): string {
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 80 ? `${s.slice(0, 77)}...` : s;
  } catch {
    return String(v); // a value JSON cannot serialise (cyclic, BigInt): show its string form
  }
}
