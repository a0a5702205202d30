// One line about the Bash sandbox for people: whether commands run in it and what network they
// reach (settings `sandbox.network`: none, everything, or the hosts of `allowedDomains` through
// deepcode's filtering proxy). Shown by /status and `deepcode permissions`, from the sandbox
// mod's own report (KnownStatus["sandbox"]).

import type { KnownStatus } from "../contract/index.js";

export function sandboxLine(s: KnownStatus["sandbox"] | undefined): string {
  if (!s || !s.active) return "not active: Bash commands run without a sandbox (deepcode doctor says why)";
  const net = s.network ? "network allowed" : s.allowedDomains && s.allowedDomains.length > 0 ? `network only to ${s.allowedDomains.join(", ")} (through deepcode's filtering proxy)` : "no network";
  return `${s.mechanism ?? "active"}: writes only in the workspace, ${net}`;
}
