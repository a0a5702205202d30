// Two markup forms that slipped through: an `<invoke name=…>` element without DSML bars whose
// arguments are an attribute, and a bare `<tool_call>` tag (no wrapper, no name attribute)
// with the tool's name first (openclaw-zero-token#160). Each becomes the call it names.
import { describe, expect, it } from "vitest";
import { scavengeResponse } from "../../src/core/repair/index.js";

function calls(content: string): Array<[string, unknown]> | undefined {
  const r = scavengeResponse({ message: { role: "assistant", content }, finishReason: "stop" }, { toolNames: ["Bash", "Read"], max: 4, nextId: () => "call_x" });
  return r?.response.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)]);
}
const contentOf = (content: string): string | null | undefined =>
  scavengeResponse({ message: { role: "assistant", content }, finishReason: "stop" }, { toolNames: ["Bash", "Read"], max: 4, nextId: () => "call_x" })?.response.message.content;

describe("markup forms without a wrapper or DSML bars", () => {
  it("reads an <invoke> element whose arguments are an attribute", () => {
    expect(calls(`<invoke name="Bash" arguments='{"command":"ls"}'/>`)).toEqual([["Bash", { command: "ls" }]]);
  });

  it("reads a bare <tool_call> tag with the name on the first line and JSON after it", () => {
    expect(calls('<tool_call>Bash\n{"command":"ls"}\n</tool_call>')).toEqual([["Bash", { command: "ls" }]]);
  });

  it("reads a bare <tool_call> tag written as a function call", () => {
    expect(calls('Running it.\n<tool_call>\nRead({"file_path":"a.txt"})\n</tool_call>')).toEqual([["Read", { file_path: "a.txt" }]]);
  });

  it("reads a named <tool_call> tag with <parameter> children", () => {
    expect(calls('<tool_call name="Bash">\n<parameter name="command">ls -la</parameter>\n</tool_call>')).toEqual([["Bash", { command: "ls -la" }]]);
  });

  it("leaves no empty <tool_call> wrapper behind when it held an invoke", () => {
    expect(contentOf('<tool_call>\n<invoke name="Bash">\n<parameter name="command">ls</parameter>\n</invoke>\n</tool_call>')).toBeNull();
  });

  it("leaves a bare tag naming no known tool as text", () => {
    expect(calls("<tool_call>Deploy\n{}\n</tool_call>")).toBeUndefined();
  });
});
