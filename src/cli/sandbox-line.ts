// One line about the Bash sandbox for people: whether commands run in it and what network they
// reach (settings `sandbox.network`: none, everything, or the hosts of `allowedDomains` through
// deepcode's filtering proxy), and what that means for questions; where it is not active, what
// protects the person on this platform and how to get it (mods/sandbox/platforms.ts). Shown by /status and `deepcode permissions`, from the sandbox
// mod's own report (KnownStatus["sandbox"]).

import type { KnownStatus } from "../contract/index.js";

export function sandboxLine(s: KnownStatus["sandbox"] | undefined): string {
  if (!s || !s.active) {
    // The mod says, per platform, what protects the person instead and how to get containment.
    if (!s?.uncontained) return "not active: Bash commands run without a sandbox (deepcode doctor says why)";
    // Required and missing: nothing runs, which is what the person needs to hear first.
    const why = s.detail ? ` (${s.detail})` : "";
    const fix = (lead: string): string => (s.fix ? `; ${lead}: ${s.fix}` : "");
    if (s.required) return `not active${why}, and required (sandbox.failIfUnavailable in ${s.required}): every command is refused${fix("to get it")}`;
    return `not active${why}: ${s.uncontained}${fix("to contain them")}`;
  }
  const net = s.network ? "network allowed" : s.allowedDomains && s.allowedDomains.length > 0 ? `network only to ${s.allowedDomains.join(", ")} (through deepcode's filtering proxy)` : "no network";
  const questions = s.autoAllow === false ? "" : "; a command it contains runs without a question";
  return `${s.mechanism ?? "active"}: writes only in the workspace, ${net}${questions}`;
}

/** What an active sandbox grants, a few lines for people (/status, `deepcode permissions`,
 *  doctor): what it reads and writes, the private home, and the environment it withholds. */
export function grantLines(s: KnownStatus["sandbox"] | undefined): string[] {
  const g = s?.active ? s.grants : undefined;
  if (!g) return [];
  const short = (p: string): string => (p === g.home ? "~" : p.startsWith(`${g.home}/`) ? `~${p.slice(g.home.length)}` : p);
  const system = new Set(["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix", "/snap", "/gnu"]);
  const reads = g.readOnly.filter((p) => !system.has(p)).map(short);
  const withheld = g.withheldEnv.length > 0 ? `${g.withheldEnv.length} withheld as credentials (${g.withheldEnv.join(", ")})` : "no credentials to withhold";
  return [
    `reads      the system${reads.length > 0 ? `, ${reads.join(", ")}` : ""} (read-only); nothing else of the disk`,
    `writes     ${g.write.map(short).join(", ")}`,
    `home       a private one at ~ (${short(g.privateHome)}): caches persist, your real home is not there`,
    `env        ${withheld}; ${g.droppedEnv} other variable(s) not granted (settings sandbox.env passes more)`,
  ];
}
