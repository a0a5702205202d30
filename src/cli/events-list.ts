// `deepcode --events`: the catalogue, with what answers each event in a running session and who
// hooks it. A session's engine gives its core answers when it starts (installCores): those are
// listed as the engine's, found by installing them on a scratch chain — no session is started,
// no hook runs, nothing is written.

import { CATALOGUE, EVENT_NAMES, type EventName } from "../contract/index.js";
import { Chain } from "../core/chain.js";
import { installCores, type EngineAccess } from "../core/engine/cores.js";
import { assemble, type AssembleOptions } from "./assemble.js";

/** Events the engine answers once a session starts. */
export function engineCores(): Set<EventName> {
  const scratch = new Chain();
  // installCores only registers closures over `access`; none of them is called here.
  installCores(scratch, {} as EngineAccess);
  return new Set(EVENT_NAMES.filter((n) => scratch.hasCore(n)));
}

export async function describeEvents(options: AssembleOptions): Promise<string> {
  const app = await assemble(options);
  const chain = app.chain;
  const engine = engineCores();
  const width = Math.max(...EVENT_NAMES.map((n) => n.length));
  const lines = [`${"event".padEnd(width)}  gate  core                 hooks`];
  for (const name of EVENT_NAMES) {
    const info = CATALOGUE[name];
    const core = info.gate ? "deny (tail)" : chain.hasCore(name) ? "assembly" : engine.has(name) ? "engine" : "NOT IMPLEMENTED";
    const hooks = chain.hooksFor(name).map((h) => `${h.tier}:${h.owner}`).join(", ");
    lines.push(`${name.padEnd(width)}  ${info.gate ? "yes " : "no  "}  ${core.padEnd(19)}  ${hooks || "-"}`);
    lines.push(`${"".padEnd(width)}        ${info.summary}`);
  }
  lines.push("", "core: engine = answered by the session's engine (from session start); assembly = set when deepcode is put together; deny (tail) = a gate's fail-closed tail.");
  return lines.join("\n");
}
