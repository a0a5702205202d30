// The cost engine as the CLI hands it to the engine: one price table for the session (the
// packaged rows plus settings `pricing`), loaded once. A malformed `pricing` is a ConfigError
// at start (deepcode refuses to start); a model with no price is said once and costs 0 from
// then on, rather than failing the turn.
import type { Usage } from "../contract/index.js";
import { costOf, loadPriceTable } from "../core/cost/index.js";
import type { LoadedSettings } from "./settings/types.js";

export function costFunction(settings: LoadedSettings, warn: (m: string) => void): (usage: Usage, model: string, at: Date) => number {
  const table = loadPriceTable(settings.merged.pricing, { file: layerOf(settings, "pricing") });
  const unpriced = new Set<string>();
  return (usage, model, at) => {
    try {
      return costOf(usage, model, at, table).usd;
    } catch (err) {
      if (!unpriced.has(model)) {
        unpriced.add(model);
        warn(`${(err as Error).message} (costs for it show as 0)`);
      }
      return 0;
    }
  };
}

/** The file of the highest layer that sets `key`, for error messages. */
export function layerOf(settings: LoadedSettings, key: string): string | undefined {
  for (let i = settings.layers.length - 1; i >= 0; i--) if (settings.layers[i].settings[key] !== undefined) return settings.layers[i].file;
  return undefined;
}
