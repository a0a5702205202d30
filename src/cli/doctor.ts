// `deepcode doctor` (and `/doctor` in the REPL): what is set up, what is wrong, how to fix it.
//
// Output: one line per finding, `✓` fine, `!` worth knowing (deepcode works, with less), `✗`
// wrong (something will fail); a `✗` or `!` line ends with ` — fix: …`. A last line counts
// them. Exit status 1 when any finding is `✗`, else 0.
//
// Contracts: the API key is never printed (only where it comes from) — every line is also
// scrubbed of it; a malformed settings file is a finding with its file:line, never a crash; the
// network check has its own time limit (10 s), so doctor never hangs on a dead network.

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ProviderError } from "../contract/index.js";
import { createProvider, type CheckResult } from "../providers/index.js";
import { DEFAULT_BASE_URL, deepcodeHome, type AssembleOptions } from "./assemble.js";
import { credentialsFile, resolveApiKey, type ApiKey } from "./credentials.js";
import { keyEnvState, type KeyEnvState } from "./key-env.js";
import { colourEnabled, makeStyle, type Style } from "./render/style.js";
import { plural } from "./render/figures.js";
import { sandboxCheck, systemChecks } from "./commands/doctor-system.js";
import { settingsChecks } from "./commands/doctor-settings.js";
import type { DoctorCheck } from "./commands/doctor-check.js";

export type { DoctorCheck, DoctorStatus } from "./commands/doctor-check.js";

export interface DoctorOptions extends AssembleOptions {
  /** The API check's time limit (default 10 s). */
  timeoutMs?: number;
  /** For tests: the platform and Node version to judge. */
  platform?: NodeJS.Platform;
  nodeVersion?: string;
}

export const DOCTOR_API_TIMEOUT_MS = 10_000;
/** util.styleText with its options (validateStream) arrived in 20.18 (nodejs.org util docs). */
const MIN_NODE: [number, number] = [20, 18];
/** A stand-in key for the reachability probe when no key is set: any HTTP answer proves the
 *  base URL reachable. It is not a secret. */
const PROBE_KEY = "deepcode-doctor-probe";

export async function doctorChecks(o: DoctorOptions): Promise<DoctorCheck[]> {
  const env = o.env ?? process.env;
  const home = o.home ?? deepcodeHome(env);
  const platform = o.platform ?? process.platform;
  const key = resolveApiKey(env, home);
  const checks: DoctorCheck[] = [nodeCheck(o.nodeVersion ?? process.versions.node)];
  checks.push(
    key
      ? { id: "key", status: "ok", label: "API key", detail: `found (from ${key.source})` }
      : {
          id: "key",
          status: "fail",
          label: "API key",
          detail: `not found (neither DEEPSEEK_API_KEY nor ${credentialsFile(home)})`,
          fix: "run `deepcode setup`, or export DEEPSEEK_API_KEY=sk-…",
        },
  );
  checks.push(keyEnvCheck(keyEnvState(), platform));
  checks.push(...(await apiChecks(env, key, o.timeoutMs ?? DOCTOR_API_TIMEOUT_MS)));
  checks.push(...settingsChecks(o, home));
  checks.push(...(await sandboxCheck({ ...o, home }, platform)), ...systemChecks(env));
  checks.push(...fileModeChecks(home, platform, key));
  // Belt and braces: nothing above prints the key, and no line may carry it.
  return key && key.key.length >= 4 ? checks.map((c) => scrub(c, key.key)) : checks;
}

export function formatDoctor(checks: readonly DoctorCheck[], style: Style = makeStyle(false)): string {
  const glyph = { ok: style("green", "✓"), warn: style("yellow", "!"), fail: style("red", "✗") };
  const lines = checks.map((c) => `${glyph[c.status]} ${c.label}: ${c.detail}${c.fix && c.status !== "ok" ? ` — fix: ${c.fix}` : ""}`);
  const fails = checks.filter((c) => c.status === "fail").length;
  const warns = checks.filter((c) => c.status === "warn").length;
  lines.push(fails + warns === 0 ? "Everything looks right." : `${plural(fails, "problem")}, ${plural(warns, "warning")}.`);
  return lines.join("\n");
}

/** `deepcode doctor`: prints the findings; 1 when something is wrong, else 0. */
export async function runDoctor(o: AssembleOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const checks = await doctorChecks(o);
  out.write(`${formatDoctor(checks, makeStyle(colourEnabled(out, o.env ?? process.env)))}\n`);
  return checks.some((c) => c.status === "fail") ? 1 : 0;
}

/** Whether a command deepcode runs could read the API key from deepcode's own environment
 *  (key-env.ts). With Yama's ptrace_scope 0 (or no Yama), a same-user command outside the
 *  sandbox could still read deepcode's memory: said, not counted as a problem. */
export function keyEnvCheck(s: KeyEnvState, platform: NodeJS.Platform, ptraceScope: string | null = readPtraceScope()): DoctorCheck {
  const label = "key in deepcode's environment";
  if (s.state === "exposed") {
    return { id: "key-env", status: "warn", label, detail: `${s.names.join(", ")} stays readable by commands run without the sandbox (${s.why})`, fix: "store the key with `deepcode setup` and unset the variable" };
  }
  const memory = platform === "linux" && (ptraceScope === null || ptraceScope === "0") ? "; a command run without the sandbox could still read deepcode's memory with a debugger (Yama ptrace_scope is " + (ptraceScope ?? "not set") + ")" : "";
  if (s.state === "none") return { id: "key-env", status: "ok", label, detail: `none (no key variable was set)${memory}` };
  return { id: "key-env", status: "ok", label, detail: `${s.names.join(", ")} removed: commands cannot read it (ps eww, /proc/<pid>/environ)${memory}` };
}

function readPtraceScope(): string | null {
  try {
    return readFileSync("/proc/sys/kernel/yama/ptrace_scope", "utf8").trim();
  } catch {
    return null; // no Yama (or not Linux): any same-user process may attach
  }
}

function nodeCheck(version: string): DoctorCheck {
  const [major, minor] = version.split(".").map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  const need = `${MIN_NODE[0]}.${MIN_NODE[1]}`;
  return ok
    ? { id: "node", status: "ok", label: "Node.js", detail: `${version} (needs ≥ ${need})` }
    : { id: "node", status: "fail", label: "Node.js", detail: `${version} is too old (needs ≥ ${need})`, fix: `install Node.js ${need} or later (https://nodejs.org)` };
}

async function apiChecks(env: NodeJS.ProcessEnv, key: ApiKey | undefined, timeoutMs: number): Promise<DoctorCheck[]> {
  const baseUrl = env.DEEPSEEK_BASE_URL || DEFAULT_BASE_URL;
  const from = env.DEEPSEEK_BASE_URL ? " (DEEPSEEK_BASE_URL)" : "";
  let result: CheckResult;
  try {
    const provider = createProvider({ baseUrl, apiKey: key?.key ?? PROBE_KEY, keySource: key?.source ?? "doctor's probe", env });
    const signal = AbortSignal.timeout(timeoutMs);
    result = await provider.check(signal);
    if (!result.ok && result.status === undefined && signal.aborted) result = { ok: false, message: `no answer within ${timeoutMs / 1000} s` };
  } catch (err) {
    const message = err instanceof ProviderError || err instanceof Error ? err.message : String(err);
    const out: DoctorCheck[] = [{ id: "api", status: "fail", label: "base URL", detail: `${baseUrl}${from}: ${message}`, fix: "set DEEPSEEK_BASE_URL to an https:// URL, or unset it for the default" }];
    if (key) out.push({ id: "auth", status: "warn", label: "key check", detail: "not checked (the base URL is unusable)" });
    return out;
  }
  if (result.status === undefined) {
    const out: DoctorCheck[] = [
      { id: "api", status: "fail", label: "base URL", detail: `${baseUrl}${from} unreachable: ${result.message}`, fix: "check the network, the proxy (HTTPS_PROXY/NO_PROXY) or DEEPSEEK_BASE_URL" },
    ];
    if (key) out.push({ id: "auth", status: "warn", label: "key check", detail: "not checked (the API could not be reached)" });
    return out;
  }
  const out: DoctorCheck[] = [{ id: "api", status: "ok", label: "base URL", detail: `${baseUrl}${from} reachable` }];
  if (!key) return out;
  if (result.ok) out.push({ id: "auth", status: "ok", label: "key check", detail: result.message });
  else out.push({ id: "auth", status: "fail", label: "key check", detail: result.message, fix: authFix(result.status, key) });
  return out;
}

function authFix(status: number, key: ApiKey): string {
  if (status === 401 || status === 403) {
    const where = key.source === "DEEPSEEK_API_KEY" ? "export a valid DEEPSEEK_API_KEY" : "run `deepcode setup` with a valid key";
    return `create a key at https://platform.deepseek.com/api_keys and ${where}`;
  }
  if (status === 402 || status < 300) return "top up the account at https://platform.deepseek.com/top_up";
  return "try again later; if it persists, check https://status.deepseek.com";
}

/** Session folders 0700 and their files 0600; the credentials file 0600 (POSIX only). */
function fileModeChecks(home: string, platform: NodeJS.Platform, key: ApiKey | undefined): DoctorCheck[] {
  if (platform === "win32") return [];
  const out: DoctorCheck[] = [];
  const sessions = join(home, "sessions");
  const loose: string[] = [];
  let seen = 0;
  const visit = (p: string, depth: number) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return; // vanished or unreadable: nothing to judge
    }
    seen++;
    if ((st.mode & 0o077) !== 0) loose.push(`${p} (${(st.mode & 0o777).toString(8)})`);
    // sessions/<project>/<id>.jsonl, and <id>.checkpoints/{journal,objects/<sha256>} below it
    if (st.isDirectory() && depth < 4) for (const n of safeList(p)) visit(join(p, n), depth + 1);
  };
  if (safeStat(sessions)) visit(sessions, 0);
  if (seen === 0) out.push({ id: "sessions", status: "ok", label: "session folder", detail: `${sessions} not created yet (it will be 0700)` });
  else if (loose.length === 0) out.push({ id: "sessions", status: "ok", label: "session folder", detail: `${sessions}: folders 0700, files 0600` });
  else {
    out.push({
      id: "sessions",
      status: "fail",
      label: "session folder",
      detail: `${loose.length} of ${seen} entries readable by others, e.g. ${loose[0]}`,
      fix: `chmod -R go-rwx ${sessions}`,
    });
  }
  const cred = credentialsFile(home);
  const st = safeStat(cred);
  if (!st) {
    const why = key?.source === "DEEPSEEK_API_KEY" ? "; the key comes from the environment" : "";
    out.push({ id: "credentials", status: "ok", label: "credentials file", detail: `${cred} not present${why}` });
  } else if ((st.mode & 0o077) !== 0) {
    out.push({ id: "credentials", status: "fail", label: "credentials file", detail: `${cred} has mode ${(st.mode & 0o777).toString(8)}: others can read the key`, fix: `chmod 600 ${cred}` });
  } else {
    out.push({ id: "credentials", status: "ok", label: "credentials file", detail: `${cred} (mode ${(st.mode & 0o777).toString(8)})` });
  }
  return out;
}

function safeStat(p: string) {
  try {
    return statSync(p);
  } catch {
    return undefined; // absent (or unreadable): reported as absent
  }
}

function safeList(p: string): string[] {
  try {
    return readdirSync(p);
  } catch {
    return []; // unreadable folder: its entries are not judged
  }
}

function scrub(c: DoctorCheck, key: string): DoctorCheck {
  const s = (t: string | undefined) => t?.split(key).join("[key]");
  return { ...c, detail: s(c.detail) ?? "", ...(c.fix ? { fix: s(c.fix) } : {}) };
}
