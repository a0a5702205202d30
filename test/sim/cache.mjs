// @ts-check
// The prefix cache, modelled on DeepSeek's context cache: a hit needs the request to start with
// a persisted prefix, from token 0, counted in whole 64-token units. Each unit is identified by
// a chained hash (h_k = H(h_{k-1}, block_k)), so a unit is only ever found behind the same
// earlier units, a look-up is one Set probe per unit, and memory is one key per distinct unit.
// A namespace (model family and user_id) seeds the chain: caches are never shared across them.
// Entries never expire here; tests that want a cold cache call clear().

export const UNIT = 64;

/**
 * Two 32-bit lanes of a murmur-style running hash, seeded from `namespace`.
 * @param {string} namespace
 * @returns {[number, number]}
 */
function seed(namespace) {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < namespace.length; i++) {
    const c = namespace.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x5bd1e995) ^ (b >>> 15);
  }
  return [a | 0, b | 0];
}

/**
 * The key of every full unit of `ids`, in order: keys[k] stands for ids[0 .. 64(k+1)).
 * @param {ArrayLike<number>} ids
 * @param {string} namespace
 * @param {number} [maxUnits] stop after this many units
 * @returns {string[]}
 */
export function unitKeys(ids, namespace, maxUnits = Infinity) {
  let [h1, h2] = seed(namespace);
  const units = Math.min(Math.floor(ids.length / UNIT), maxUnits);
  /** @type {string[]} */
  const keys = new Array(units);
  let at = 0;
  for (let u = 0; u < units; u++) {
    for (const end = at + UNIT; at < end; at++) {
      let k = Math.imul(ids[at], 0xcc9e2d51);
      k = (k << 15) | (k >>> 17);
      k = Math.imul(k, 0x1b873593);
      h1 ^= k;
      h1 = (h1 << 13) | (h1 >>> 19);
      h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
      h2 = Math.imul(h2 ^ ids[at], 0x85ebca77);
      h2 ^= h2 >>> 13;
      h2 = (h2 + h1) | 0;
    }
    // Finalise without disturbing the running state, so the next unit chains on this one.
    let f1 = h1 ^ (h1 >>> 16);
    f1 = Math.imul(f1, 0x85ebca6b);
    f1 ^= f1 >>> 13;
    keys[u] = `${(f1 >>> 0).toString(36)}.${(h2 >>> 0).toString(36)}`;
  }
  return keys;
}

/**
 * A prefix cache over token ids.
 * @returns {import("./server.mjs").PrefixCache}
 */
export function createPrefixCache() {
  /** @type {Set<string>} */
  const units = new Set();
  return {
    unit: UNIT,
    lookup(ids, namespace = "") {
      const keys = unitKeys(ids, namespace);
      let k = 0;
      while (k < keys.length && units.has(keys[k])) k++;
      return k * UNIT;
    },
    persist(ids, namespace = "") {
      for (const key of unitKeys(ids, namespace)) units.add(key);
    },
    clear() {
      units.clear();
    },
    get size() {
      return units.size;
    },
  };
}
