// What an untrusted project's settings may do: tighten always, loosen only once trusted. Every
// key has a rule; a key without one needs trust (fail closed).
import { describe, expect, it } from "vitest";
import { classifySettings } from "../../src/cli/trust/classify.js";
import { trustDigest } from "../../src/cli/trust/items.js";

const F = "/p/.deepcode/settings.json";
const split = (s: Record<string, unknown>, ref = {}) => classifySettings(s as never, F, ref);

describe("an untrusted project's settings", () => {
  it("keep their deny and ask rules, and lose their allow rules and extra folders", () => {
    const r = split({ permissions: { deny: ["Bash(rm:*)"], ask: ["Edit"], allow: ["Bash", "Edit(**)"], additionalDirectories: ["/"] } });
    expect(r.kept).toEqual({ permissions: { deny: ["Bash(rm:*)"], ask: ["Edit"] } });
    expect(r.items.map((i) => i.what)).toEqual(["allow rule Bash", "allow rule Edit(**)", "extra writable folder /"]);
  });

  it("may switch the sandbox on and keep it off the network, never the reverse", () => {
    expect(split({ sandbox: { enabled: true, network: false } }).kept).toEqual({ sandbox: { enabled: true, network: false } });
    const off = split({ sandbox: { enabled: false, network: true } });
    expect(off.kept).toEqual({});
    expect(off.items.map((i) => i.what)).toEqual(["switch the Bash sandbox off", "let sandboxed commands use the network"]);
  });

  it("keeps a project's sandbox host list (sandbox.network.allowedDomains) out until the project is trusted", () => {
    const r = split({ sandbox: { network: { allowedDomains: ["registry.npmjs.org", "*.github.com"] } } });
    expect(r.kept).toEqual({});
    expect(r.items.map((i) => i.what)).toEqual(["let sandboxed commands reach registry.npmjs.org, *.github.com"]);
    expect(split({ sandbox: { network: { allowedDomains: [] } } }).kept).toEqual({ sandbox: { network: { allowedDomains: [] } } });
  });

  it("may lower the person's budget but not raise it, nor allow raising it", () => {
    const r = split({ budget: { daily: 1, monthly: 500, allowRaise: true } }, { budget: { daily: 2, monthly: 100 } });
    expect(r.kept).toEqual({ budget: { daily: 1 } });
    expect(r.items.map((i) => i.what)).toEqual(["raise the monthly budget from 100 to 500", "let a spent budget be raised"]);
  });

  it("may keep checkpoints on, bound them and ask before planning, but not switch checkpoints off", () => {
    expect(split({ checkpoints: { enabled: true, maxBytes: 8 * 1024 * 1024 }, autoPlan: "ask" }).kept).toEqual({ checkpoints: { enabled: true, maxBytes: 8 * 1024 * 1024 }, autoPlan: "ask" });
    const off = split({ checkpoints: { enabled: false } });
    expect(off.kept).toEqual({});
    expect(off.items.map((i) => i.what)).toEqual(["switch file checkpoints off (no /undo or /rewind of files)"]);
  });

  it("cannot bound checkpoints below 1 MiB, which would switch them off in effect", () => {
    for (const maxBytes of [0, 1000, 1024 * 1024 - 1, -5, "0"]) {
      const r = split({ checkpoints: { maxBytes } });
      expect({ maxBytes, kept: r.kept }).toEqual({ maxBytes, kept: {} });
      expect(r.items.map((i) => i.what)).toEqual([`bound file checkpoints to ${JSON.stringify(maxBytes)} bytes, below 1 MiB (which keeps almost nothing to /undo or /rewind)`]);
    }
    expect(split({ checkpoints: { maxBytes: 1024 * 1024 } }).kept).toEqual({ checkpoints: { maxBytes: 1024 * 1024 } });
  });

  it("run no hooks and load no plugins or servers, each one listed", () => {
    const r = split({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh" }] }] }, plugins: ["./p.js"], mcpServers: { db: { command: "x" } } });
    expect(r.kept).toEqual({});
    expect(r.items.map((i) => i.what)).toEqual(["run PreToolUse (Bash) hook: ./check.sh", "load plugin ./p.js", "start MCP server db"]);
  });

  it("keep what neither loosens, spends more nor runs anything (compaction, display)", () => {
    const r = split({ compaction: { threshold: 0.7 }, estimate: "show", theme: "dark" });
    expect(r.items).toEqual([]);
    expect(Object.keys(r.kept)).toEqual(["compaction", "estimate", "theme"]);
  });

  it("need trust for a model choice: an untrusted project cannot switch the session to a pricier model (issue 22)", () => {
    const r = split({ model: "deepseek-reasoner", tier: "reasoner", planner: "deepseek-reasoner", autoPlan: "on", theme: "dark" });
    expect(r.kept).toEqual({ theme: "dark" });
    expect(r.items.map((i) => i.key)).toEqual(["model", "tier", "planner", "autoPlan"]);
    expect(r.items[0].what).toBe("run the session on the model deepseek-reasoner (it may cost more)");
  });

  it("may lower the bound on tool results but not raise it (every result would cost more)", () => {
    expect(split({ toolResultMaxBytes: 8192 }).kept).toEqual({ toolResultMaxBytes: 8192 });
    const raised = split({ toolResultMaxBytes: 10_000_000 });
    expect(raised.kept).toEqual({});
    expect(raised.items.map((i) => i.key)).toEqual(["toolResultMaxBytes"]);
  });

  it("may keep every MCP form for a person (mcpElicitation ask), but answering forms with their defaults needs trust", () => {
    expect(split({ mcpElicitation: "ask" }).kept).toEqual({ mcpElicitation: "ask" });
    const r = split({ mcpElicitation: "defaults" });
    expect(r.kept).toEqual({});
    expect(r.items.map((i) => [i.key, i.what])).toEqual([["mcpElicitation", "answer MCP servers' forms with their defaults where nobody can answer (defaults)"]]);
  });

  it("need trust for a key no rule names (a new key loosens until someone decides otherwise)", () => {
    const r = split({ env: { BASH_ENV: "./x.sh" }, someFutureKey: true });
    expect(r.kept).toEqual({});
    expect(r.items.map((i) => i.key)).toEqual(["env", "someFutureKey"]);
  });
});

describe("the trust digest", () => {
  it("ignores key order but not content", () => {
    const a = split({ hooks: { Stop: [{ hooks: [{ type: "command", command: "a", timeout: 5 }] }] } }).items;
    const b = split({ hooks: { Stop: [{ hooks: [{ timeout: 5, command: "a", type: "command" }] }] } }).items;
    const c = split({ hooks: { Stop: [{ hooks: [{ type: "command", command: "b", timeout: 5 }] }] } }).items;
    expect(trustDigest("/p", a)).toBe(trustDigest("/p", b));
    expect(trustDigest("/p", a)).not.toBe(trustDigest("/p", c));
  });
});
