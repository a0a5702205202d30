// What `a` ("this kind, for the session") remembers, as a rule in the same grammar. The REPL
// prints it when `a` is pressed; the session layer only ever adds allow rules, so a remembered
// rule can never beat a deny or an ask rule of another layer.
//
// - Bash, one command: its normalised prefix — the command name, plus the subcommand for tools
//   that have them (`npm test` → `Bash(npm test:*)`, `git commit -m x` → `Bash(git commit:*)`,
//   `npm run build` → `Bash(npm run build:*)`, `ls -la` → `Bash(ls:*)`).
// - Bash, compound: the shared prefix when every part that needs a rule has the same one
//   (`npm test && npm test -- --watch` → `Bash(npm test:*)`); otherwise the exact line
//   (`Bash(npm test | tail -5)`), which allows exactly that text again and nothing else.
// - Bash commands that run arbitrary code given as arguments (interpreters, shells, `awk`,
//   `find`), that set variables, use sudo, write through a redirection (`npm test > log`) or
//   use an option that runs other code (`npm test --node-options=…`), or cannot be read with
//   confidence: the exact line.
//   (A line deepcode cannot read with confidence still asks every time: its parts cannot be
//   checked against deny rules, so no remembered allow applies to it.)
// - Read of a secret, or an edit of a protected project path (src/contract/protected.ts): that
//   path only (`Read(//home/me/.ssh/config)`), since those ask regardless of a bare `Read`/`Edit`
//   allow, and only a rule naming the path lifts them.
// - A search whose folder reaches the home folder's credentials asks every time: the tool's name
//   is what `a` remembers, and it does not lift that ask (a folder rule would lift the secrets
//   inside it for Read as well, which is more than one answer should grant).
// - Every other tool: the tool's name (`Edit`, `mcp__github__create_issue`).

import { resolve } from "node:path";
import { isPass } from "./decide-bash.js";
import type { DecisionEnv, ToolCall } from "./decide.js";
import { isSafeEnv } from "../../lib/effects/safe-env.js";
import { expandHome, isDeviceSink, protectedReason, secretReason, viewPath } from "./paths.js";
import { lifecycleChange } from "./containment/lifecycle.js";
import { EDIT_TOOLS, READ_TOOLS } from "./rules.js";
import type { Word } from "../../lib/shell/lexer.js";
import { fileEffects } from "../../lib/shell/effects.js";
import { parseShell, type ShellPart } from "../../lib/shell/parser.js";
import { programRisks } from "../../lib/shell/programs.js";

/** Commands whose arguments are code: remembering their name would allow any program. */
const CODE_RUNNERS = new Set([
  "python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php", "lua", "Rscript", "osascript", "pwsh",
  "powershell", "java", "awk", "gawk", "mawk", "sed", "find", "ssh", "bash", "sh", "zsh", "dash", "ksh", "fish",
  "source", ".", "watch", "parallel", "script", "expect", "tclsh", "wish", "make",
]);
/** Tools with subcommands: the first plain word is part of the prefix. */
const SUBCOMMANDS = new Set([
  "git", "npm", "pnpm", "yarn", "bun", "deno", "npx", "cargo", "go", "docker", "podman", "kubectl", "helm", "pip",
  "pip3", "poetry", "uv", "gh", "brew", "apt", "apt-get", "dotnet", "mvn", "gradle", "terraform", "rustup", "nix",
  "bundle", "rails", "rake", "composer", "swift", "flutter", "dart", "mix", "stack", "cabal", "conda", "tsc", "vitest", "jest",
]);
const RUNS_SCRIPTS = new Set(["npm", "pnpm", "yarn", "bun"]);

export function rememberRule(call: ToolCall, env: DecisionEnv): string {
  if (call.tool === "Bash") return rememberBash(typeof call.input.command === "string" ? call.input.command : "", env);
  // WebFetch asks per host, as Claude Code's does: `a` remembers that host (and its subdomains).
  if (call.tool === "WebFetch" && typeof call.input.url === "string" && URL.canParse(call.input.url)) return `WebFetch(domain:${new URL(call.input.url).hostname.replace(/^\[|\]$/g, "")})`;
  const raw = call.input.file_path ?? call.input.notebook_path ?? call.input.path;
  if (typeof raw === "string" && raw !== "") {
    const abs = resolve(env.root, expandHome(raw, env.home));
    const view = viewPath(abs);
    if (EDIT_TOOLS.has(call.tool) && (protectedReason(view, env) || lifecycleChange(call.tool, call.input, abs))) return `${call.tool}(${absoluteRulePath(abs)})`;
    if (READ_TOOLS.has(call.tool) && secretReason(view, env)) return `Read(${absoluteRulePath(abs)})`;
  }
  return call.tool;
}

function rememberBash(command: string, env: DecisionEnv): string {
  const exact = `Bash(${command.trim().replace(/\*/g, "\\*")})`;
  const parsed = parseShell(command, { cwd: env.cwd, home: env.home });
  if (parsed.unsure.length > 0) return exact;
  const relevant = parsed.parts.filter((p) => p.words.length > 0 && !isPass(p, env));
  if (relevant.length === 0) return exact;
  const prefixes = relevant.map(prefixOf);
  if (prefixes.some((p) => p === null)) return exact;
  const first = (prefixes[0] as string[]).join(" ");
  if (prefixes.some((p) => (p as string[]).join(" ") !== first)) return exact;
  return `Bash(${first}:*)`;
}

function prefixOf(part: ShellPart): string[] | null {
  if (part.unsure.length > 0 || part.escalated || part.argsUnknown || part.lookup) return null;
  if (part.assigns.some((a) => !isSafeEnv(a))) return null;
  if (part.qualified && !/^\/(?:usr\/)?(?:local\/)?s?bin\/[^/]+$/.test(part.commandWord)) return null;
  // A write the command's rule would not cover (a redirection, `sed -i`), or an option that runs
  // other code beyond the words the rule would name: that rule would not lift the ask next time;
  // the exact line does.
  if (fileEffects(part).edits.some((e) => !isDeviceSink(e.word.value))) return null;
  const tokens = commandPrefix(part);
  return tokens && programRisks(part).every((r) => r.at < tokens.length) ? tokens : null;
}

function commandPrefix(part: ShellPart): string[] | null {
  const name = part.name;
  const args = part.words.slice(1);
  if (/^python[0-9.]*$/.test(name) && args[0]?.value === "-m" && plain(args[1])) return [name, "-m", args[1].value];
  if (CODE_RUNNERS.has(name) || /^python[0-9.]*$/.test(name)) return null;
  if (!SUBCOMMANDS.has(name) || !plain(args[0])) return [name];
  const tokens = [name, args[0].value];
  if (RUNS_SCRIPTS.has(name) && ["run", "exec", "x", "dlx"].includes(args[0].value) && plain(args[1])) tokens.push(args[1].value);
  return tokens;
}

/** A subcommand-like word: not an option, a path, a glob or anything quoted or expanded. */
function plain(w: Word | undefined): w is Word {
  return w !== undefined && !w.expanded && !w.glob && !w.brace && !w.quoted && /^[A-Za-z][A-Za-z0-9:_-]*$/.test(w.value);
}

/** `//home/me/.ssh/config`, with glob characters escaped so the rule names exactly this path. */
function absoluteRulePath(abs: string): string {
  const posix = abs.replace(/\\/g, "/");
  return `//${posix.replace(/^\/+/, "").replace(/[*?[\]{}]/g, "\\$&")}`;
}
