// The prefix as this deepcode would build it now for a session: its system sections
// (context.system's answer, then --append-system-prompt) and its tools (tool.list).

import type { AgentIdentity, SystemSection } from "../../contract/index.js";
import type { Chain } from "../chain.js";
import { buildPrefix, type Prefix } from "../context/prefix.js";
import { PROXY_TOOL, type ToolRegistry } from "./tools.js";

export interface SectionSource {
  chain: Chain;
  sessionId: string;
  root: string;
  model: string;
  who: { agent?: AgentIdentity };
  registry: ToolRegistry;
  appendSystemPrompt?: string;
}

export async function gatherSections(s: SectionSource): Promise<SystemSection[]> {
  const tools = s.registry.list().map((t) => t.spec.name);
  const r = await s.chain.dispatch({ type: "context.system", sessionId: s.sessionId, root: s.root, model: s.model, tools, ...s.who });
  const sections = [...r.sections];
  const onDemand = onDemandSection(s.registry);
  if (onDemand) sections.push(onDemand);
  if (s.appendSystemPrompt) sections.push({ id: "append-system-prompt", text: s.appendSystemPrompt });
  return sections;
}

/** The on-demand tools that have a line (ToolSpec.onDemand), one line each, in the registry's
 *  stable order: all the prefix says of them. */
function onDemandSection(registry: ToolRegistry): SystemSection | undefined {
  const lines = registry
    .list()
    .filter((t) => t.spec.onDemand)
    .map((t) => `- ${t.spec.name} ${t.spec.onDemand}`);
  if (lines.length === 0) return undefined;
  return { id: "on-demand-tools", text: [`Also available through ${PROXY_TOOL} ({"name", "input"}):`, ...lines].join("\n") };
}

export async function freshPrefix(s: SectionSource): Promise<{ prefix: Prefix; sections: SystemSection[] }> {
  const sections = await gatherSections(s);
  const tools = await s.chain.dispatch({ type: "tool.list", sessionId: s.sessionId });
  return { prefix: buildPrefix(sections, tools), sections };
}
