import { describe, expect, it } from "vitest";
import { parseDsml } from "../../src/core/repair/index.js";
import { callsOf, harness, reply } from "./helpers.js";

/** DSML as DeepSeek writes it, with the bar of choice. */
function dsml(bar: string, wrapper: string, invokes: string): string {
  return `<${bar}DSML${bar}${wrapper}>\n${invokes}</${bar}DSML${bar}${wrapper}>`;
}
function invoke(bar: string, name: string, params: Array<[string, string, string]>): string {
  const ps = params.map(([p, str, v]) => `<${bar}DSML${bar}parameter name="${p}" string="${str}">${v}</${bar}DSML${bar}parameter>\n`).join("");
  return `<${bar}DSML${bar}invoke name="${name}">\n${ps}</${bar}DSML${bar}invoke>\n`;
}

const FULL = "｜";

describe("DSML tool calls written in content become real tool calls", () => {
  it("reads full-width DSML into a Read call, removes the markup and keeps the prose", async () => {
    const h = harness();
    const content = `I will read the file.\n\n${dsml(FULL, "tool_calls", invoke(FULL, "Read", [["file_path", "true", "src/a.ts"]]))}`;
    const out = await h.respond(reply(content));
    expect(callsOf(out)).toEqual([{ name: "Read", input: { file_path: "src/a.ts" } }]);
    expect(out.message.content).toBe("I will read the file.");
    expect(out.finishReason).toBe("tool_calls");
    expect(out.message.tool_calls?.[0]).toMatchObject({ id: expect.stringMatching(/^call_scav_[A-Za-z0-9]{16}$/), type: "function" });
    expect(h.repairs).toEqual([{ step: 1, kind: "scavenged-dsml", detail: "Read(file_path=src/a.ts)" }]);
  });

  it("reads ASCII-bar DSML the same way", async () => {
    const h = harness();
    const out = await h.respond(reply(dsml("|", "tool_calls", invoke("|", "Glob", [["pattern", "true", "**/*.ts"]]))));
    expect(callsOf(out)).toEqual([{ name: "Glob", input: { pattern: "**/*.ts" } }]);
    expect(out.message.content).toBeNull();
    expect(h.repairs).toHaveLength(1);
  });

  it("reads the function_calls wrapper of V3.2", async () => {
    const h = harness();
    const out = await h.respond(reply(dsml(FULL, "function_calls", invoke(FULL, "Bash", [["command", "true", "npm test"]]))));
    expect(callsOf(out)).toEqual([{ name: "Bash", input: { command: "npm test" } }]);
  });

  it("parses string=\"false\" values as JSON and keeps string=\"true\" values as written", async () => {
    const h = harness();
    const body = invoke(FULL, "Read", [
      ["file_path", "true", "42"],
      ["offset", "false", "10"],
      ["limit", "false", "20"],
    ]);
    const out = await h.respond(reply(dsml(FULL, "tool_calls", body)));
    expect(callsOf(out)).toEqual([{ name: "Read", input: { file_path: "42", offset: 10, limit: 20 } }]);
  });

  it("keeps a multi-line string value byte for byte", async () => {
    const h = harness();
    const code = "  if (a) {\n    return b;\n  }\n";
    const body = invoke(FULL, "Edit", [["file_path", "true", "x.ts"], ["old_string", "true", code], ["new_string", "true", ""]]);
    const out = await h.respond(reply(dsml(FULL, "tool_calls", body)));
    expect(callsOf(out)).toEqual([{ name: "Edit", input: { file_path: "x.ts", old_string: code, new_string: "" } }]);
  });

  it("tolerates closing tags missing at the end of the reply", async () => {
    const h = harness();
    const content = `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="Bash">\n<｜DSML｜parameter name="command" string="true">ls -la src\n`;
    const out = await h.respond(reply(content));
    expect(callsOf(out)).toEqual([{ name: "Bash", input: { command: "ls -la src" } }]);
    expect(out.message.content).toBeNull();
  });

  it("tolerates an invoke left open before the next invoke and before the wrapper's closer", () => {
    const text =
      `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="Read">\n<｜DSML｜parameter name="file_path" string="true">a.ts</｜DSML｜parameter>\n` +
      `<｜DSML｜invoke name="Read">\n<｜DSML｜parameter name="file_path" string="true">b.ts</｜DSML｜parameter>\n</｜DSML｜tool_calls>\nDone.`;
    const r = parseDsml(text);
    expect(r.calls).toEqual([
      { name: "Read", input: { file_path: "a.ts" } },
      { name: "Read", input: { file_path: "b.ts" } },
    ]);
    expect(r.rest.trim()).toBe("Done.");
  });

  it("reads DSML whose markers were split across stream chunks once the chunks are joined", async () => {
    const h = harness();
    const chunks = ["Reading.<｜DS", "ML｜tool_", "calls>\n<｜DSML｜in", 'voke name="Re', 'ad">\n<｜DSML｜parameter name="file_', 'path" string="tr', 'ue">src/', "b.ts</｜DSML", "｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_c", "alls>"];
    const out = await h.respond(reply(chunks.join("")));
    expect(callsOf(out)).toEqual([{ name: "Read", input: { file_path: "src/b.ts" } }]);
    expect(out.message.content).toBe("Reading.");
  });

  it("ignores DSML naming a tool that is not registered, and leaves the reply as it was", async () => {
    const h = harness();
    const content = dsml(FULL, "tool_calls", invoke(FULL, "DeleteEverything", [["path", "true", "/"]]));
    const original = reply(content);
    const out = await h.respond(original);
    expect(out).toEqual(original);
    expect(h.repairs).toEqual([]);
  });

  it("keeps the registered calls of a block and drops the unregistered ones", async () => {
    const h = harness();
    const body = invoke(FULL, "Nope", [["x", "true", "1"]]) + invoke(FULL, "Read", [["file_path", "true", "a.ts"]]);
    const out = await h.respond(reply(dsml(FULL, "tool_calls", body)));
    expect(callsOf(out)).toEqual([{ name: "Read", input: { file_path: "a.ts" } }]);
    expect(out.message.content).toBeNull();
  });

  it("reads doubled bars, typographic quotes and a bare invoke without a wrapper", () => {
    const doubled = `<｜｜DSML｜｜tool_calls>\n<｜｜DSML｜｜invoke name=“Read”>\n<｜｜DSML｜｜parameter name=“file_path” string=“true”>c.ts</｜｜DSML｜｜parameter>\n</｜｜DSML｜｜invoke>\n</｜｜DSML｜｜tool_calls>`;
    expect(parseDsml(doubled).calls).toEqual([{ name: "Read", input: { file_path: "c.ts" } }]);
    const bare = `Let me look.\n<｜DSML｜invoke name="Glob">\n<｜DSML｜parameter name="pattern" string="true">*.md</｜DSML｜parameter>\n</｜DSML｜invoke>\nThen I will summarise.`;
    const r = parseDsml(bare);
    expect(r.calls).toEqual([{ name: "Glob", input: { pattern: "*.md" } }]);
    expect(r.rest).toBe("Let me look.\n\nThen I will summarise.");
  });

  it("types a parameter written without string=\"…\" by the tool's schema", async () => {
    const h = harness();
    const content = `<｜DSML｜tool_calls><｜DSML｜invoke name="Read"><｜DSML｜parameter name="file_path">7.ts</｜DSML｜parameter><｜DSML｜parameter name="limit">5</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>`;
    const out = await h.respond(reply(content));
    expect(callsOf(out)).toEqual([{ name: "Read", input: { file_path: "7.ts", limit: 5 } }]);
  });

  it("does not parse DSML in a reply that already has tool calls or was cut by the length limit", async () => {
    const h = harness();
    const content = dsml(FULL, "tool_calls", invoke(FULL, "Read", [["file_path", "true", "a.ts"]]));
    const withCalls = reply(content);
    withCalls.message.tool_calls = [{ id: "call_00_x", type: "function", function: { name: "Glob", arguments: '{"pattern":"*"}' } }];
    expect(await h.respond(withCalls)).toEqual(withCalls);
    const cut = reply(content, undefined, "length");
    expect(await h.respond(cut)).toEqual(cut);
    expect(h.repairs).toEqual([]);
  });
});
