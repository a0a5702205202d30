// The person's git configuration in the sandbox's private home, without its credentials.
//
// `git commit` needs `user.name` and `user.email`, and people rely on their aliases, their
// global ignore file and their diff settings; so `~/.gitconfig` and `$XDG_CONFIG_HOME/git/config`
// (with `ignore` and `attributes` beside it) are copied into the private home before each
// command — the command may have changed the copy — with what can carry a credential left out:
//   - `[credential …]` sections (helpers and stored usernames);
//   - `[url "…"]` sections whose URL holds userinfo (`insteadOf` rewrites that embed a token);
//   - any key whose name says it is a secret (`extraheader`, `*pass*`, `*token*`, `*secret*`,
//     `cookiefile`), and any value holding a URL with a password or a well-known token shape;
//   - `[include]`/`[includeIf]` paths: the files they name are not in the sandbox (and may be
//     where the person keeps the credentials).
// What is left out is replaced by a comment line saying so.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { URL_WITH_PASSWORD } from "../../src/contract/secret-content.js";
import { TOKEN_SHAPE } from "./env.js";

const SECRET_KEY = /extraheader|pass|token|secret|cookiefile|auth/i;

/** The sanitised text of a git config file. */
export function sanitizeGitConfig(text: string): string {
  const out: string[] = [];
  let dropSection = false;
  for (const line of text.split(/\r?\n/)) {
    const head = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (head) {
      const section = head[1].toLowerCase();
      const sub = head[2] ?? "";
      dropSection = section === "credential" || section.startsWith("credential.") || section === "include" || section === "includeif" || (section === "url" && /\/\/[^/]*@/.test(sub)) || URL_WITH_PASSWORD.test(sub);
      out.push(dropSection ? `# [${head[1]}] left out by deepcode's sandbox (it can carry a credential)` : line);
      // A key on the same line as the header (`[core] editor = vim`) is judged below.
      const rest = line.slice(head.index + head[0].length);
      if (dropSection || !/=/.test(rest)) continue;
      if (secretLine(rest)) out[out.length - 1] = `${line.slice(0, head.index + head[0].length)} # a key left out by deepcode's sandbox`;
      continue;
    }
    if (dropSection) continue;
    out.push(secretLine(line) ? "# a key left out by deepcode's sandbox (it can carry a credential)" : line);
  }
  return out.join("\n");
}

function secretLine(line: string): boolean {
  const kv = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
  if (!kv) return URL_WITH_PASSWORD.test(line) || TOKEN_SHAPE.test(line);
  const value = kv[2] ?? "";
  return SECRET_KEY.test(kv[1]) || URL_WITH_PASSWORD.test(value) || TOKEN_SHAPE.test(value);
}

/** Write the sanitised copies of the person's git configuration into the private home (only
 *  when they differ from what is there, so their times stay put). */
export function syncGitConfig(realHome: string, privHome: string, env: NodeJS.ProcessEnv = process.env): void {
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(realHome, ".config");
  const pairs: Array<[string, string, boolean]> = [
    [join(realHome, ".gitconfig"), join(privHome, ".gitconfig"), true],
    [join(xdg, "git", "config"), join(privHome, ".config", "git", "config"), true],
    [join(xdg, "git", "ignore"), join(privHome, ".config", "git", "ignore"), false],
    [join(xdg, "git", "attributes"), join(privHome, ".config", "git", "attributes"), false],
  ];
  for (const [from, to, sanitize] of pairs) {
    let text: string;
    try {
      text = readFileSync(from, "utf8");
    } catch {
      continue; // the person has none: nothing to copy
    }
    const want = sanitize ? sanitizeGitConfig(text) : text;
    try {
      if (existsSync(to) && readFileSync(to, "utf8") === want) continue;
      mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
      writeFileSync(to, want, { mode: 0o600 });
    } catch {
      // the private home is not writable (a full disk): git in the sandbox runs without it
    }
  }
}
