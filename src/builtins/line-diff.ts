// A line diff (Myers' O(ND) algorithm) and its unified rendering, for Edit and Write results.

export type DiffOp = { kind: "eq" | "del" | "ins"; line: string };

/** Above this many differences the middle is reported as one delete + one insert block. */
const MAX_D = 4000;

export function diffLines(a: string[], b: string[]): DiffOp[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const head: DiffOp[] = a.slice(0, pre).map((line) => ({ kind: "eq", line }));
  const tail: DiffOp[] = a.slice(a.length - suf).map((line) => ({ kind: "eq", line }));
  const mid = myers(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf));
  return [...head, ...mid, ...tail];
}

function myers(a: string[], b: string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((line) => ({ kind: "ins", line }));
  if (m === 0) return a.map((line) => ({ kind: "del", line }));
  const max = Math.min(n + m, MAX_D);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[off + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, next, off, d, k);
    }
    v = next;
  }
  // Too different to be worth the search: replace the whole middle.
  return [...a.map((line): DiffOp => ({ kind: "del", line })), ...b.map((line): DiffOp => ({ kind: "ins", line }))];
}

function backtrack(a: string[], b: string[], trace: Int32Array[], last: Int32Array, off: number, dEnd: number, kEnd: number): DiffOp[] {
  const ops: DiffOp[] = [];
  let x = last[off + kEnd];
  let y = x - kEnd;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d];
    const k = x - y;
    const down = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]);
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[off + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: "eq", line: a[--x] });
      y--;
    }
    if (down) ops.push({ kind: "ins", line: b[--y] });
    else ops.push({ kind: "del", line: a[--x] });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: "eq", line: a[--x] });
    y--;
  }
  return ops.reverse();
}

export interface UnifiedDiff {
  diff: string;
  added: number;
  removed: number;
  /** 1-based line in the new text of the first change (0 when nothing changed). */
  firstChangedLine: number;
}

/** A unified diff with `context` lines around each change; lines compared without their \r. */
/** `created`: the file does not exist yet, so the old side is `/dev/null` (git's convention),
 *  not an empty `a/name` — an emptied file and a new one read differently. */
export function unifiedDiff(oldText: string, newText: string, name: string, context = 3, created = false): UnifiedDiff {
  const ops = diffLines(toLines(oldText), toLines(newText));
  // aPos[i], bPos[i]: old and new lines before op i.
  const aPos: number[] = [];
  const bPos: number[] = [];
  let added = 0;
  let removed = 0;
  for (let i = 0, a = 0, b = 0; i <= ops.length; i++) {
    aPos.push(a);
    bPos.push(b);
    const kind = ops[i]?.kind;
    if (kind === "eq" || kind === "del") a++;
    if (kind === "eq" || kind === "ins") b++;
    if (kind === "del") removed++;
    if (kind === "ins") added++;
  }
  const out: string[] = [];
  let firstChangedLine = 0;
  let i = 0;
  while (i < ops.length) {
    if (ops[i].kind === "eq") {
      i++;
      continue;
    }
    if (firstChangedLine === 0) firstChangedLine = bPos[i] + 1;
    const start = Math.max(0, i - context);
    // Changes closer than 2 × context equal lines share a hunk.
    let end = i;
    let j = i;
    while (j < ops.length) {
      if (ops[j].kind !== "eq") {
        end = ++j;
        continue;
      }
      let r = j;
      while (r < ops.length && ops[r].kind === "eq") r++;
      if (r === ops.length || r - j > 2 * context) {
        end = j + Math.min(context, r - j);
        break;
      }
      j = r;
    }
    const aCount = aPos[end] - aPos[start];
    const bCount = bPos[end] - bPos[start];
    out.push(`@@ -${aCount ? aPos[start] + 1 : aPos[start]},${aCount} +${bCount ? bPos[start] + 1 : bPos[start]},${bCount} @@`);
    for (let k = start; k < end; k++) out.push(`${ops[k].kind === "eq" ? " " : ops[k].kind === "del" ? "-" : "+"}${ops[k].line}`);
    i = end;
  }
  const diff = out.length ? [created ? "--- /dev/null" : `--- a/${name}`, `+++ b/${name}`, ...out].join("\n") : "";
  return { diff, added, removed, firstChangedLine };
}

function toLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}
