import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { nameAll, serverParts } from "../../mods/mcp/names.js";
import { startHarness } from "../helpers/harness.js";
import { chatBodies } from "../helpers/extension.js";
import { withOptions } from "../../mods/mcp/index.js";
import type { JsonValue } from "../../src/contract/index.js";

describe("the names MCP tools and prompts get", () => {
  it("are mcp__<server>__<tool>, in sorted order", () => {
    expect(nameAll("github", ["list_issues", "create_issue"]).map((n) => n.name)).toEqual(["mcp__github__create_issue", "mcp__github__list_issues"]);
  });

  it("turn characters the API does not allow into _ and say so", () => {
    const [n] = nameAll("my server", ["get.thing"]);
    expect(n.name).toBe("mcp__my_server__get_thing");
    expect(n.renamed).toMatch(/became _/);
  });

  it("stay within 64 characters, told apart by a hash of the whole name, the same every time", () => {
    const long = "x".repeat(80);
    const a = nameAll("srv", [long, `${long}y`]);
    expect(a.every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n.name))).toBe(true);
    expect(new Set(a.map((n) => n.name)).size).toBe(2);
    expect(nameAll("srv", [long, `${long}y`])).toEqual(a);
  });

  it("tell apart two tools whose names come out the same", () => {
    const a = nameAll("s", ["a.b", "a_b"]);
    expect(new Set(a.map((n) => n.name)).size).toBe(2);
    expect(a.find((n) => n.original === "a_b")!.name).toBe("mcp__s__a_b");
    expect(a.find((n) => n.original === "a.b")!.renamed).toBeDefined();
  });

  it("give servers whose names come out the same (my.server, my server) distinct parts, the same every time", () => {
    const p = serverParts(["my.server", "my server", "other", "my_server"]);
    expect(p.get("other")).toEqual({ part: "other" });
    expect(p.get("my_server")!.part).toBe("my_server");
    expect(p.get("my.server")!.part).toMatch(/^my_server_[0-9a-f]{6}$/);
    expect(p.get("my server")!.part).toMatch(/^my_server_[0-9a-f]{6}$/);
    expect(p.get("my.server")!.part).not.toBe(p.get("my server")!.part);
    expect(p.get("my.server")!.clash).toEqual(["my server", "my_server"]);
    expect(serverParts(["my server", "my.server"]).get("my.server")).toEqual(p.get("my.server") && { part: p.get("my.server")!.part, clash: ["my server"] });
  });

  it("keep both servers' tools when their names clash, and say so loudly", async () => {
    const SERVER = fileURLToPath(new URL("./fixtures/scripted-server.mjs", import.meta.url));
    const srv = (name: string): JsonValue => ({ name, scope: "user", source: "test", transport: "stdio", command: process.execPath, args: [SERVER], env: { PATH: process.env.PATH ?? "" }, raw: {}, start: true, approval: "none" });
    const h = await startHarness({ script: { replies: [{ content: "ok" }] }, allowAll: true, mods: [withOptions((): Record<string, JsonValue> => ({ servers: [srv("my.server"), srv("my server")], firstRequestWaitMs: 20_000 }))] });
    try {
      await h.turn("hi");
      const names = (chatBodies(h.sim.requests)[0].tools as Array<{ function: { name: string } }>).map((t) => t.function.name).filter((n) => n.startsWith("mcp__"));
      expect(names).toHaveLength(2);
      expect(names.every((n) => /^mcp__my_server_[0-9a-f]{6}__echo$/.test(n))).toBe(true);
      expect(h.warnings.join("\n")).toMatch(/MCP server "my.server" and "my server" come out the same in tool names/);
    } finally {
      await h.engine.close("exit");
      await h.close();
    }
  });
});
