// The session's config options for the editor (session/new, session/load, set_config_option):
// the model (the models this run knows, api.host.models) and the tier (`/tier`: auto, default,
// or one of the four cost tiers, api.host.tiers).

import type { PluginApi, SessionHandle } from "../../src/contract/index.js";
import { INVALID_PARAMS, RpcError, type Params } from "./rpc.js";

export function configOptions(api: PluginApi, handle: SessionHandle): unknown[] {
  const now = handle.settings();
  const models = api.host.models.includes(now.model) ? api.host.models : [now.model, ...api.host.models];
  const tiers = Object.entries(api.host.tiers).map(([name, p]) => ({ value: name, name, description: `${p.model}${p.thinking === "enabled" ? ", thinking" : ""}` }));
  return [
    { id: "model", name: "Model", category: "model", type: "select", currentValue: now.model, options: models.map((m) => ({ value: m, name: m })) },
    {
      id: "tier",
      name: "Tier",
      category: "model_config",
      description: "which model and thinking each turn runs on (as /tier)",
      type: "select",
      currentValue: now.tier,
      options: [{ value: "default", name: "default", description: "follows the model" }, { value: "auto", name: "auto", description: "deepcode picks each turn's tier" }, ...tiers],
    },
  ];
}

/** session/set_config_option: `model` or `tier`; the answer is every option as it is now. */
export function setConfigOption(api: PluginApi, handle: SessionHandle, p: Params): unknown {
  const id = p.configId;
  const value = p.value;
  if (typeof value !== "string" || !value) throw new RpcError(INVALID_PARAMS, "'value' must be a non-empty string");
  if (id === "model") {
    if (!api.host.models.includes(value)) throw new RpcError(INVALID_PARAMS, `unknown model '${value}' (deepcode knows ${api.host.models.join(", ")})`);
    handle.configure({ model: value });
  } else if (id === "tier") {
    try {
      handle.configure({ tier: value });
    } catch (err) {
      throw new RpcError(INVALID_PARAMS, (err as Error).message);
    }
  } else throw new RpcError(INVALID_PARAMS, `no config option '${String(id)}' (deepcode offers model, tier)`);
  return { configOptions: configOptions(api, handle) };
}
