// Declared placement (contract Placement): put a list of named steps in an order that keeps
// every `before`/`after` a step declares, and otherwise the list's own order. Assembly's steps
// (the permission gate, the cost engine…) and the plugins that load with them share one list,
// so a mod can ask to register before or after a named step. `*` stands for every step that
// does not itself name `*` the same way, nor name the step that says `*` (telemetry: before
// everything; the sandbox: after everything but acp-io, which names it: `after: ["sandbox"]`).
// A name nobody has is ignored (a plugin that did not load must not stop the rest); a circle
// throws, naming it.

export interface Placed {
  name: string;
  before?: readonly string[];
  after?: readonly string[];
}

export function placeInOrder<T extends Placed>(steps: readonly T[]): T[] {
  const index = new Map<string, number[]>();
  steps.forEach((s, i) => index.set(s.name, [...(index.get(s.name) ?? []), i]));
  // edges[i] = steps that must come after step i
  const edges = steps.map(() => new Set<number>());
  const ins = steps.map(() => 0);
  const edge = (from: number, to: number): void => {
    if (from === to || edges[from].has(to)) return;
    edges[from].add(to);
    ins[to]++;
  };
  // `*` from step `s`: every step that names neither `*` nor `s` on the same side.
  const named = (n: string, side: "before" | "after", s: T): number[] =>
    n === "*" ? steps.flatMap((t, j) => (t[side]?.includes("*") || t[side]?.includes(s.name) ? [] : [j])) : (index.get(n) ?? []);
  steps.forEach((s, i) => {
    for (const n of s.before ?? []) for (const j of named(n, "before", s)) edge(i, j);
    for (const n of s.after ?? []) for (const j of named(n, "after", s)) edge(j, i);
  });
  const out: T[] = [];
  const done = new Set<number>();
  while (out.length < steps.length) {
    // The first step in list order with nothing left before it: a stable order.
    const next = steps.findIndex((_, i) => !done.has(i) && ins[i] === 0);
    if (next < 0) {
      const stuck = steps.filter((_, i) => !done.has(i)).map((s) => s.name);
      throw new Error(`the declared placements form a circle among: ${stuck.join(", ")}`);
    }
    done.add(next);
    out.push(steps[next]);
    for (const j of edges[next]) ins[j]--;
  }
  return out;
}
