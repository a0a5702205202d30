// Settings: five layers (user → project → local → flag → managed), merged per key.
export { defaultManagedPath, loadSettings, type LoadSettingsOptions } from "./load.js";
export { describeRules, formatRules, type RuleDescription } from "./describe.js";
export { SETTINGS_SCHEMA, describeType, type KeyType } from "./schema.js";
export { parseJson, JsonSyntaxError, type JsonPosition, type ParsedJson } from "../../lib/json-text.js";
export * from "./types.js";
