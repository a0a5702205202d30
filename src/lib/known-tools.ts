// The tool names the registry knows, as a mod that reports by tool name sees them: a name counts
// when the engine offered it to the model (`tool.list`) or checked a call to it as a registered
// tool (`tool.check` with a readOnly flag); a name the model made up never does. The telemetry
// and otel mods both report only such names (so a made-up name, which may hold anything, is
// never written or sent).

import type { PluginApi } from "../contract/index.js";

/** Observe `tool.list` and `tool.check` on `api`; the returned set grows as names are seen. */
export function knownTools(api: Pick<PluginApi, "on">): Set<string> {
  const tools = new Set<string>();
  api.on("tool.list", async (_e, next) => {
    const r = await next();
    for (const d of r) tools.add(d.function.name);
    return r;
  });
  api.on("tool.check", async (e, next) => {
    if (e.readOnly !== null) tools.add(e.tool);
    return next();
  });
  return tools;
}
