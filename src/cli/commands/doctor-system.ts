// Doctor's findings about the machine: the Bash sandbox (bubblewrap on Linux, and whether it can
// actually start a namespace here) and ripgrep. Neither is required: without a sandbox Bash runs
// under the permission gate only, without rg Grep uses its built-in search. So a missing one is
// `!`, not `✗`.

import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { DoctorCheck } from "../doctor.js";

const BWRAP_TIMEOUT_MS = 5_000;

/** The absolute path of an executable on PATH, or undefined. */
export function onPath(name: string, path = ""): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this PATH entry (or not executable): try the next one
    }
  }
  return undefined;
}

export function systemChecks(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): DoctorCheck[] {
  return [sandboxCheck(env, platform), rgCheck(env)];
}

function sandboxCheck(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): DoctorCheck {
  const label = "sandbox";
  if (platform !== "linux") {
    return { id: "sandbox", status: "warn", label, detail: `not available on ${platform}: Bash commands run under the permission gate only`, fix: "none needed; review Bash prompts with care" };
  }
  const bwrap = onPath("bwrap", env.PATH);
  if (!bwrap) {
    return { id: "sandbox", status: "warn", label, detail: "bwrap (bubblewrap) not found on PATH: Bash commands run unsandboxed", fix: "install bubblewrap (apt install bubblewrap, dnf install bubblewrap)" };
  }
  const r = spawnSync(bwrap, ["--ro-bind", "/", "/", "true"], { timeout: BWRAP_TIMEOUT_MS, encoding: "utf8", env });
  if (r.status === 0) return { id: "sandbox", status: "ok", label, detail: `${bwrap} works` };
  const why = r.error ? r.error.message : (r.stderr || "").trim().split("\n")[0] || `exit ${r.status ?? r.signal}`;
  return {
    id: "sandbox",
    status: "warn",
    label,
    detail: `${bwrap} is installed but cannot create a sandbox here (${why})`,
    fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0), or run outside a container that forbids them",
  };
}

function rgCheck(env: NodeJS.ProcessEnv): DoctorCheck {
  const rg = onPath("rg", env.PATH);
  if (rg) return { id: "rg", status: "ok", label: "ripgrep", detail: rg };
  return { id: "rg", status: "warn", label: "ripgrep", detail: "rg not found on PATH: Grep uses its built-in search (slower on large trees)", fix: "install ripgrep (https://github.com/BurntSushi/ripgrep#installation)" };
}
