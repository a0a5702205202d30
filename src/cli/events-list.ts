// `deepcode --events`: the catalogue, with what answers each event in a running session and who
// hooks it. The engine answers its events per session once a session runs
// (Chain.setSessionCores; ENGINE_EVENTS lists them); the rest are set when deepcode is put
// together. No session is started here, no hook runs, nothing is written.
//
// The chain is the one a front end runs: assembled with that front end's own hooks (FrontEnd),
// as the REPL (`deepcode --events`), `-p` (`deepcode -p --events`) and an editor's sessions
// (`deepcode --events acp`) assemble it — no front end adds a hook after assembly.

import { CATALOGUE, EVENT_NAMES } from "../contract/index.js";
import { ENGINE_EVENTS } from "../core/engine/cores.js";
import { assemble, type AssembleOptions } from "./assemble.js";
import { PrintTiming } from "./print.js";
import { replFrontEnd } from "./repl/front-end.js";
import { TurnKeys } from "./repl/keys.js";
import { makeStyle } from "./render/style.js";

export const FRONT_ENDS = ["repl", "print", "acp"] as const;
export type FrontEndName = (typeof FRONT_ENDS)[number];

/** What a front end adds to the assembly options: the REPL's hooks (never run here: nobody
 *  answers, nothing renders), -p's timing, nothing for `deepcode acp` (its hooks are mods). */
export function frontEndOptions(name: FrontEndName): Pick<AssembleOptions, "interactive" | "frontEnd"> {
  if (name === "repl") {
    const frontEnd = replFrontEnd({ keys: new TurnKeys(), out: process.stdout, style: makeStyle(false), side: () => undefined, early: () => undefined });
    return { interactive: true, frontEnd };
  }
  return name === "print" ? { interactive: false, frontEnd: new PrintTiming().frontEnd } : { interactive: false };
}

export async function describeEvents(options: AssembleOptions, frontEnd: FrontEndName = "repl"): Promise<string> {
  const app = await assemble({ ...options, ...frontEndOptions(frontEnd) });
  const chain = app.chain;
  const width = Math.max(...EVENT_NAMES.map((n) => n.length));
  const lines = [`${"event".padEnd(width)}  gate  core                 hooks`];
  for (const name of EVENT_NAMES) {
    const info = CATALOGUE[name];
    const core = info.gate ? (chain.hasGateDefault(name) ? "default, else deny" : "deny (tail)") : chain.hasCore(name) ? "assembly" : ENGINE_EVENTS.includes(name) ? "engine" : "NOT IMPLEMENTED";
    const hooks = chain.hooksFor(name).map((h) => `${h.tier}:${h.owner}`).join(", ");
    lines.push(`${name.padEnd(width)}  ${info.gate ? "yes " : "no  "}  ${core.padEnd(19)}  ${hooks || "-"}`);
    lines.push(`${"".padEnd(width)}        ${info.summary}`);
  }
  lines.push("", `front end: ${frontEnd} (deepcode --events: the REPL; deepcode -p --events: -p; deepcode --events acp: an editor's sessions)`);
  lines.push("core: engine = answered by the session's engine (from session start); assembly = set when deepcode is put together; deny (tail) = a gate's fail-closed tail; default, else deny = the gate's default answer (the permission rules on tool.check), a deny if it fails.");
  return lines.join("\n");
}
