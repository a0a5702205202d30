// Which settings file a merged key came from: the highest layer that sets it (layers low to
// high, the managed policy last). For error messages that name the file (ConfigError); the
// CLI's settings loader and the cost engine read it alike.

export interface LayeredSettings {
  readonly layers: ReadonlyArray<{ readonly file?: string; readonly settings: { readonly [key: string]: unknown } }>;
}

export function settingFile(settings: LayeredSettings, key: string): string | undefined {
  for (let i = settings.layers.length - 1; i >= 0; i--) if (settings.layers[i].settings[key] !== undefined) return settings.layers[i].file;
  return undefined;
}
