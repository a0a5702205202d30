// Small helpers shared by benchmark sections: timing, medians, and the side-by-side table.
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Time `fn` (async, called `n` times per round) over several rounds; ns per call, median. */
export async function nsPerCall(fn, n, rounds = 7) {
  for (let i = 0; i < Math.min(n, 2000); i++) await fn(); // warm up the JIT
  const per = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    per.push(Number(process.hrtime.bigint() - t0) / n);
  }
  return median(per);
}

export const fast = process.argv.includes("--fast") || process.env.BENCH_FAST === "1";

/** Print rows as an aligned table. `rows` are arrays of cells; the first row is the header. */
export function table(title, rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  console.log(`\n## ${title}`);
  for (const [i, r] of rows.entries()) {
    console.log(r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join("  "));
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "));
  }
}

export const fmt = {
  ns: (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} µs` : `${x.toFixed(0)} ns`),
  ratio: (x) => `${x.toFixed(2)}×`,
  pct: (x) => `${(x * 100).toFixed(1)}%`,
  ms: (x) => `${x.toFixed(1)} ms`,
  usd: (x) => `$${x.toFixed(4)}`,
};
