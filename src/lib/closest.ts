// The nearest known word to a mistyped one (a flag, a verb), for "did you mean …?".

/** The known name closest to `name` (edit distance, case-insensitive), if it is close enough. */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const n = name.toLowerCase();
  for (const k of known) {
    const d = k.toLowerCase().startsWith(n) && n.length >= 3 ? 0.5 : distance(n, k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return bestD <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
