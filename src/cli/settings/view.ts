// What plugins read of the settings (PluginApi.settings): the loaded layers, frozen, and the
// merged values. Built once per assembly from the settings in force (trust already applied).

import type { SettingsView } from "../../contract/index.js";
import { deepFreeze } from "../../lib/json.js";
import { settingFile } from "./load.js";
import type { LoadedSettings } from "./types.js";

export function settingsView(settings: LoadedSettings): SettingsView {
  const merged = deepFreeze(structuredClone(settings.merged));
  const layers = Object.freeze(settings.layers.map((l) => Object.freeze({ name: l.name, file: l.file, settings: deepFreeze(structuredClone(l.settings)) })));
  return Object.freeze({
    get: (key: string) => merged[key],
    layers,
    fileOf: (key: string) => settingFile(settings, key),
  });
}
