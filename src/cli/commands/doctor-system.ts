// Doctor's findings about the machine: the Bash sandbox (bubblewrap on Linux, and whether it can
// actually start a namespace here) and ripgrep. Neither is required: without a sandbox Bash runs
// under the permission gate only, without rg Grep uses its built-in search. So a missing one is
// `!`, not `✗`.

import { grantLines } from "../sandbox-line.js";
import { assemble, type AssembleOptions } from "../assemble.js";
import type { DoctorCheck } from "./doctor-check.js";
import { findOnPath } from "../../lib/path-lookup.js";


export function systemChecks(env: NodeJS.ProcessEnv): DoctorCheck[] {
  return [rgCheck(env)];
}

/** Whether Bash really runs sandboxed: a harmless `true` goes through the assembled chain's
 *  `process.run` — the same hooks a tool's command meets — and the result says whether the
 *  sandbox wrapped it. So the answer follows settings (`sandbox.enabled`) and whatever the
 *  sandbox mod found at start, not a second guess at bwrap. */
export async function sandboxCheck(o: AssembleOptions, platform: NodeJS.Platform): Promise<DoctorCheck[]> {
  const label = "sandbox";
  const warnings: string[] = [];
  let app;
  try {
    app = await assemble({ ...o, warn: (m) => warnings.push(m) });
  } catch (err) {
    return [{ id: "sandbox", status: "warn", label, detail: `not checked: deepcode cannot start here (${(err as Error).message})`, fix: "fix the settings problem reported above" }];
  }
  return [await sandboxOf(app, o, platform, warnings), await instructionsCheck(app)];
}

/** The instructions the system prompt would carry, and whether one was cut to its limit: the
 *  sections are gathered as a session would (context.system through the mods), nothing sent. */
async function instructionsCheck(app: Awaited<ReturnType<typeof assemble>>): Promise<DoctorCheck> {
  const label = "instructions";
  app.chain.setCore("context.system", () => ({ sections: [] })); // the engine's base sections are not instructions
  const r = await app.chain.dispatch({ type: "context.system", sessionId: "doctor", root: app.root, model: app.model });
  const cut = r.sections.filter((s) => s.note);
  const names = r.sections.filter((s) => s.id.startsWith("instructions:")).map((s) => s.id.slice("instructions:".length));
  if (cut.length) return { id: "instructions", status: "warn", label, detail: cut.map((s) => s.note).join("; "), fix: "shorten the file, or raise pluginConfig.instructions.maxChars in settings" };
  return { id: "instructions", status: "ok", label, detail: names.length ? `${names.join(", ")} sent in full` : "no AGENTS.md or CLAUDE.md" };
}

async function sandboxOf(app: Awaited<ReturnType<typeof assemble>>, o: AssembleOptions, platform: NodeJS.Platform, warnings: string[]): Promise<DoctorCheck> {
  const label = "sandbox";
  let r;
  try {
    r = await app.chain.dispatch({ type: "process.run", argv: ["true"], cwd: o.root, timeoutMs: 10_000, command: "true" });
  } catch (err) {
    return { id: "sandbox", status: "warn", label, detail: `a test command could not run (${(err as Error).message})` };
  }
  if (r.sandbox) return { id: "sandbox", status: "ok", label, detail: [`active: Bash commands run inside ${r.sandbox}`, ...grantLines(app.pluginStatus("sandbox")).map((l) => `    ${l}`)].join("\n") };
  // The mod's status says why, what protects the person on this platform and how to get
  // containment (mods/sandbox/platforms.ts); its warning at start says why too: "sandbox: the
  // Bash sandbox is not active: <why>. Commands still …".
  const st = app.pluginStatus("sandbox");
  const said = warnings.find((w) => /sandbox/i.test(w));
  const why = st?.detail ?? (said ? (/not active: (.*?)\. Commands still/.exec(said)?.[1] ?? said.replace(/^sandbox: /, "")) : platform === "linux" ? "turned off in settings (sandbox.enabled: false)" : `not available on ${platform}`);
  return {
    id: "sandbox",
    status: "warn",
    label,
    detail: `not active: ${why}; ${st?.uncontained ?? "Bash commands run under the permission gate and path fence only"}`,
    fix: st?.fix ?? (platform === "linux" ? "install bubblewrap (apt install bubblewrap) and allow unprivileged user namespaces, or set sandbox.enabled to true" : "none available on this platform; review Bash prompts with care"),
  };
}

function rgCheck(env: NodeJS.ProcessEnv): DoctorCheck {
  const rg = findOnPath("rg", env.PATH ?? "");
  if (rg) return { id: "rg", status: "ok", label: "ripgrep", detail: rg };
  return { id: "rg", status: "warn", label: "ripgrep", detail: "rg not found on PATH: Grep uses its built-in search (slower on large trees)", fix: "install ripgrep (https://github.com/BurntSushi/ripgrep#installation)" };
}
