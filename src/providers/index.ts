// The providers' public API: what the rest of deepcode calls. Everything else in this folder
// is an implementation detail.

export { createProvider } from "./client.js";
export { capsFor, KNOWN_MODELS } from "./capabilities.js";
export { prepareRequest } from "./prepare.js";
export { ENDPOINTS } from "./endpoints.js";
export type { EndpointRow } from "./endpoints.js";
export type { CheckResult, Provider, ProviderOptions, RequestOptions } from "./types.js";
export { openSocket, targetOf } from "./connect.js";
