// The names a server's tools and prompts get in deepcode: `mcp__<server>__<name>`, made valid
// for the API (function names are `[a-zA-Z0-9_-]{1,64}`). A character outside that set becomes
// `_` (as Claude Code does for server names); a name that is too long keeps its start and ends
// in a short hash of the whole; two names that come out the same are told apart by the hash
// too. The result depends only on the server's name and its list (sorted), so it is the same
// in every session: the cached prefix and the permission rules can rely on it.

import { createHash } from "node:crypto";

const MAX = 64;

export function safePart(s: string): string {
  const r = s.replace(/[^A-Za-z0-9_-]/g, "_");
  return r === "" ? "_" : r;
}

function hashed(base: string, original: string): string {
  const h = createHash("sha256").update(original).digest("hex").slice(0, 8);
  return `${base.slice(0, MAX - 9)}_${h}`;
}

export interface Named {
  /** The server's own name for it. */
  original: string;
  /** What deepcode calls it. */
  name: string;
  /** Why it is not the plain `mcp__server__name` (too long, invalid characters, a clash). */
  renamed?: string;
}

/** The part each server's names carry (`mcp__<part>__…`): its name made valid, and where two
 *  servers' names come out the same (`my.server` and `my server` are both `my_server`), each one
 *  whose name had to change gets a short hash of its name too, so neither's tools replace or
 *  drop the other's. `clash` names the others, for a warning. Depends only on the names. */
export function serverParts(names: readonly string[]): Map<string, { part: string; clash?: string[] }> {
  const bySafe = new Map<string, string[]>();
  for (const n of names) bySafe.set(safePart(n), [...(bySafe.get(safePart(n)) ?? []), n]);
  const out = new Map<string, { part: string; clash?: string[] }>();
  for (const [safe, group] of bySafe) {
    for (const n of group) {
      if (group.length === 1) out.set(n, { part: safe });
      else {
        const h = createHash("sha256").update(n).digest("hex").slice(0, 6);
        out.set(n, { part: n === safe ? safe : `${safe}_${h}`, clash: group.filter((x) => x !== n) });
      }
    }
  }
  return out;
}

/** Names for a server's items, in the order of `originals` sorted. `part`: the server's part of
 *  the name (serverParts; default: its name made valid). */
export function nameAll(server: string, originals: readonly string[], part = safePart(server)): Named[] {
  const prefix = `mcp__${part}__`;
  const taken = new Set<string>();
  const out: Named[] = [];
  // Names that need no change are placed first, so a tool called exactly `a_b` keeps its name
  // when another's `a.b` comes out the same.
  const sorted = [...new Set(originals)].sort();
  const plain = (o: string) => `mcp__${server}__${o}` === prefix + safePart(o) && (prefix + o).length <= MAX;
  for (const original of [...sorted.filter(plain), ...sorted.filter((o) => !plain(o))]) {
    let name = prefix + safePart(original);
    let renamed: string | undefined = name === `mcp__${server}__${original}` ? undefined : "characters the API does not allow became _";
    if (name.length > MAX) {
      name = hashed(name, `${server}\u0000${original}`);
      renamed = `longer than ${MAX} characters: shortened`;
    }
    if (taken.has(name)) {
      name = hashed(name, `${server}\u0000${original}`);
      renamed = `another name of this server came out the same: told apart`;
    }
    taken.add(name);
    out.push({ original, name, ...(renamed ? { renamed } : {}) });
  }
  return out.sort((a, b) => (a.original < b.original ? -1 : a.original > b.original ? 1 : 0));
}
