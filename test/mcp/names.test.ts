import { describe, expect, it } from "vitest";
import { nameAll } from "../../mods/mcp/names.js";

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
});
