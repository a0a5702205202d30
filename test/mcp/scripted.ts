// The scripted stdio MCP server (fixtures/scripted-server.mjs) as the mcp mod's configuration
// takes one, for tests that run the mod in a harness.
import { fileURLToPath } from "node:url";
import type { JsonValue } from "../../src/contract/index.js";

export const SCRIPTED_SERVER = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));

/** A user-scope server entry that needs no approval; `command` another program (a missing one
 *  makes a server that fails to start). */
export function scriptedServer(name: string, env: Record<string, string> = {}, command = process.execPath): JsonValue {
  return { name, scope: "user", source: "test", transport: "stdio", command, args: [SCRIPTED_SERVER], env: { PATH: process.env.PATH ?? "", ...env }, raw: {}, start: true, approval: "none" };
}
