// @ts-check
// A small deterministic PRNG (mulberry32): the same numbers for the same seed on every run, so a
// failing random test or a benchmark fixture can be replayed exactly. Plain JS so benchmarks
// (run by node directly) and TypeScript tests share it.

/**
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
