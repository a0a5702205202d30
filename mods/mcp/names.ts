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

/** Names for a server's items, in the order of `originals` sorted. */
export function nameAll(server: string, originals: readonly string[]): Named[] {
  const prefix = `mcp__${safePart(server)}__`;
  const taken = new Set<string>();
  const out: Named[] = [];
  for (const original of [...new Set(originals)].sort()) {
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
  return out;
}
