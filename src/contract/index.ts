// The contract: everything layers share. It imports nothing outside this folder.
export * from "./wire.js";
export * from "./tool.js";
export * from "./stream.js";
export * from "./errors.js";
export * from "./events.js";
export * from "./agents.js";
export * from "./plugin.js";
export * from "./host.js";
export * from "./telemetry.js";
