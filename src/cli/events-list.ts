// `deepcode --events`: the catalogue, with what answers each event in a running session and who
// hooks it. The engine answers its events per session once a session runs
// (Chain.setSessionCores; ENGINE_EVENTS lists them); the rest are set when deepcode is put
// together. No session is started here, no hook runs, nothing is written.

import { CATALOGUE, EVENT_NAMES } from "../contract/index.js";
import { ENGINE_EVENTS } from "../core/engine/cores.js";
import { assemble, type AssembleOptions } from "./assemble.js";

export async function describeEvents(options: AssembleOptions): Promise<string> {
  const app = await assemble(options);
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
  lines.push("", "core: engine = answered by the session's engine (from session start); assembly = set when deepcode is put together; deny (tail) = a gate's fail-closed tail; default, else deny = the gate's default answer (the permission rules on tool.check), a deny if it fails.");
  return lines.join("\n");
}
