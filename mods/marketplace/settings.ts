// What the marketplace reads of the settings: the layers alone (enabledPlugins, the managed
// policy's marketplace lists, extraKnownMarketplaces), low → high with the managed policy last.
// api.settings is one; so is the CLI's LoadedSettings.

import type { SettingsView } from "../../src/contract/index.js";

export type Settings = Pick<SettingsView, "layers">;
