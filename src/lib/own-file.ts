// A file deepcode reads on its own — instructions, a SKILL.md, an agent file, a custom command,
// a memory file — rather than because a tool call asked: nobody is asked about it, so it gets
// the identity checks the Read tool's question would have made, and refuses instead of asking:
//
// - a regular file only (a FIFO named AGENTS.md must not hang start-up: the open does not
//   block, and what was opened is checked, not what the name showed a moment before);
// - within the folders the caller names (`within`: the project for the project's files), after
//   every symlink, and with one name only there (a hard link could be the name of a file outside);
// - not a secret (the host's check: `.env`, a private key, ~/.aws/credentials, deepcode's own
//   credentials — under any name, a symlink or a hard link included);
// - bounded: at most `maxBytes` are read, and the result says the file was longer.
//
// Plugins reach this as PluginApi.readOwnFile (the host adds the secret check). Everything here
// is synchronous on purpose: loaders that run at start-up and per turn read this way.

import { closeSync, lstatSync, readSync, realpathSync, type Stats } from "node:fs";
import { resolve, sep } from "node:path";
import type { OwnFileOptions, OwnFileRead } from "../contract/index.js";
import { NotRegularFileError, openRegularSync } from "./regular-file.js";

export const OWN_FILE_MAX_BYTES = 1024 * 1024;

/** Why `path` (absolute) is a secret, or undefined: the host's check (src/cli/permissions). */
export type SecretCheck = (path: string) => string | undefined;

function canonical(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function inside(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

export function readOwnFile(path: string, o: OwnFileOptions = {}, secret?: SecretCheck): OwnFileRead {
  const abs = resolve(path);
  const refuse = (reason: string): OwnFileRead => ({ ok: false, missing: false, reason: `${abs} is not read: ${reason}` });
  let real: string;
  try {
    lstatSync(abs);
    real = realpathSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, missing: true, reason: `${abs} does not exist` };
    if (code === "ELOOP") return refuse("a symlink loop");
    return refuse(`it cannot be looked at (${code ?? String(err)})`);
  }
  const where = real === abs ? "" : ` (it leads to ${real})`;
  if (o.within && o.within.length > 0 && !o.within.some((d) => inside(real, canonical(d)) || inside(real, resolve(d)))) {
    return refuse(`it lies outside ${o.within.join(", ")}${where}; only a file that is really there is read`);
  }
  const why = secret?.(abs) ?? (real !== abs ? secret?.(real) : undefined);
  if (why) return refuse(`${why}${where}; deepcode never reads a secret on its own`);
  let fd: number;
  let st: Stats;
  try {
    // The open does not block (a FIFO returns at once) and what was opened is checked.
    ({ fd, stat: st } = openRegularSync(abs));
  } catch (err) {
    if (err instanceof NotRegularFileError) return refuse(`it is not a regular file (${err.kind === "a named pipe (FIFO)" ? "a FIFO" : err.kind})`);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EISDIR") return refuse("it is not a regular file (a folder)");
    if (code === "ENOENT") return { ok: false, missing: true, reason: `${abs} does not exist` };
    return refuse(`it cannot be opened (${code ?? String(err)})`);
  }
  try {
    if (o.within && o.within.length > 0 && st.nlink > 1) return refuse(`it has ${st.nlink} names (a hard link), and another may lie outside ${o.within.join(", ")}; replace it with a copy`);
    const max = o.maxBytes ?? OWN_FILE_MAX_BYTES;
    const want = Math.min(st.size, max);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    const data = buf.subarray(0, got);
    return { ok: true, path: abs, real, text: data.toString("utf8"), data, size: st.size, truncated: st.size > got };
  } finally {
    closeSync(fd);
  }
}
