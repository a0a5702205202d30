// `deepcode --events`: the catalogue, with which events have a core answer and who hooks them.
import { CATALOGUE, EVENT_NAMES } from "../contract/index.js";
import type { Chain } from "../core/chain.js";
import { ENGINE_EVENTS } from "../core/engine/cores.js";

export function describeEvents(chain: Chain): string {
  const width = Math.max(...EVENT_NAMES.map((n) => n.length));
  const lines = [`${"event".padEnd(width)}  gate  core             hooks`];
  for (const name of EVENT_NAMES) {
    const info = CATALOGUE[name];
    // The engine answers its events per session (Chain.setSessionCores), once a session runs.
    const core = info.gate ? "deny (tail)" : chain.hasCore(name) ? "implemented" : ENGINE_EVENTS.includes(name) ? "engine" : "NOT IMPLEMENTED";
    const hooks = chain.hooksFor(name).map((h) => `${h.tier}:${h.owner}`).join(", ");
    lines.push(`${name.padEnd(width)}  ${info.gate ? "yes " : "no  "}  ${core.padEnd(15)}  ${hooks || "-"}`);
    lines.push(`${"".padEnd(width)}        ${info.summary}`);
  }
  return lines.join("\n");
}
