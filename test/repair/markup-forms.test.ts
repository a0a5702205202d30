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

describe("markup forms from round three (lucebox#670, ai-free-vscode#17)", () => {
  it("reads <function_call> with <invoke_name> and its parameters as child elements", () => {
    const text = "Let me look.\n<function_call> <invoke_name>Read</invoke_name> <parameters> <file_path>src/a.ts</file_path> <offset>1</offset> </parameters> </function_call>";
    expect(calls(text)).toEqual([["Read", { file_path: "src/a.ts", offset: "1" }]]);
    expect(contentOf(text)).toBe("Let me look.");
  });

  it("reads <function_call> whose closers are missing at the end of the reply", () => {
    expect(calls("<function_call>\n<invoke_name>Bash</invoke_name>\n<parameters>\n<command>ls -la</command>")).toEqual([["Bash", { command: "ls -la" }]]);
  });

  it("reads <function_call> whose parameters are one JSON object", () => {
    expect(calls('<function_call><invoke_name>Bash</invoke_name><parameters>{"command":"ls"}</parameters></function_call>')).toEqual([["Bash", { command: "ls" }]]);
  });

  it("reads a bare <tool_call> holding one element named after the tool", () => {
    const text = "<tool_call> <Read> <file_path>notes.txt</file_path> <offset>1</offset> </Read> </tool_call>";
    expect(calls(text)).toEqual([["Read", { file_path: "notes.txt", offset: "1" }]]);
    expect(contentOf(text)).toBeNull();
  });

  it("leaves prose that mentions the tags as text", () => {
    expect(calls("The server expects a <function_call> element with an <invoke_name> child; I will not call anything.")).toBeUndefined();
    expect(calls("Wrap it in <tool_call> and put <Read> inside, then we are done.")).toBeUndefined();
    expect(calls("For example:\n<tool_call> <Read> <file_path>x</file_path> </Read> </tool_call>")).toBeUndefined();
    expect(calls("<function_call><invoke_name>Deploy</invoke_name><parameters><env>prod</env></parameters></function_call>")).toBeUndefined();
  });
});
