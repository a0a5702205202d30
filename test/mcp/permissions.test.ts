// MCP tools behind the gate: the rules mcp__server, mcp__server__tool and mcp__server__* work in
// every one of the five layers, deny > ask > allow whatever the layer; an MCP tool asks by
// default even when its server says it only reads (readOnlyHint schedules, never allows); the
// managed layer cannot be loosened; a resource mention is checked as mcp__server__resources.
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assemble } from "../../src/cli/assemble.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

type Layer = "user" | "project" | "local" | "flag" | "managed";

async function decision(rules: Partial<Record<Layer, { allow?: string[]; ask?: string[]; deny?: string[] }>>, tool: string, readOnly = false): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), "deepcode-mcp-perm-"));
  const home = mkdtempSync(join(tmpdir(), "deepcode-mcp-home-"));
  dirs.push(root, home);
  mkdirSync(join(root, ".deepcode"));
  const file = (l: Layer) => ({ user: join(home, "settings.json"), project: join(root, ".deepcode", "settings.json"), local: join(root, ".deepcode", "settings.local.json"), flag: join(home, "flag.json"), managed: join(home, "managed.json") })[l];
  for (const [l, r] of Object.entries(rules)) writeFileSync(file(l as Layer), JSON.stringify({ permissions: r }));
  const app = await assemble({ root, home, env: { DEEPSEEK_API_KEY: "sk-test" }, flagSettings: rules.flag ? file("flag") : undefined, managedPath: file("managed"), trustProject: true, warn: () => undefined });
  const d = await app.chain.dispatch({ type: "tool.check", sessionId: "s", tool, input: {}, callId: "c", readOnly, step: 1 });
  return d.decision;
}

const LAYERS: Layer[] = ["user", "project", "local", "flag", "managed"];

describe("permission rules for MCP tools", () => {
  it("asks for an MCP tool by default, also for one the server hints is read-only", async () => {
    expect(await decision({}, "mcp__github__create_issue")).toBe("ask");
  });

  for (const layer of LAYERS) {
    it(`allows by server, by tool and by server wildcard from the ${layer} layer`, async () => {
      expect(await decision({ [layer]: { allow: ["mcp__github"] } }, "mcp__github__create_issue")).toBe("allow");
      expect(await decision({ [layer]: { allow: ["mcp__github__create_issue"] } }, "mcp__github__create_issue")).toBe("allow");
      expect(await decision({ [layer]: { allow: ["mcp__github__create_issue"] } }, "mcp__github__delete_repo")).toBe("ask");
      expect(await decision({ [layer]: { allow: ["mcp__github__*"] } }, "mcp__github__delete_repo")).toBe("allow");
      expect(await decision({ [layer]: { allow: ["mcp__github__*"] } }, "mcp__gitlab__delete_repo")).toBe("ask");
    });

    it(`denies from the ${layer} layer over an allow in every other layer`, async () => {
      const others = Object.fromEntries(LAYERS.filter((l) => l !== layer).map((l) => [l, { allow: ["mcp__github"] }]));
      expect(await decision({ ...others, [layer]: { deny: ["mcp__github__delete_repo"] } }, "mcp__github__delete_repo")).toBe("deny");
      expect(await decision({ ...others, [layer]: { deny: ["mcp__github__delete_repo"] } }, "mcp__github__create_issue")).toBe("allow");
      expect(await decision({ ...others, [layer]: { ask: ["mcp__github__*"] } }, "mcp__github__create_issue")).toBe("ask");
    });
  }

  it("checks an @server:uri resource mention as mcp__server__resources, which server rules cover", async () => {
    expect(await decision({}, "mcp__docs__resources", true)).toBe("allow");
    expect(await decision({ managed: { deny: ["mcp__docs"] } }, "mcp__docs__resources", true)).toBe("deny");
    expect(await decision({ user: { deny: ["mcp__docs__resources"] } }, "mcp__docs__resources", true)).toBe("deny");
    expect(await decision({ user: { deny: ["mcp__docs__resources"] } }, "mcp__docs__search")).toBe("ask");
  });
});
