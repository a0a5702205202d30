// A `tools/call` result as the model reads it. DeepSeek reads text only, so what is not text
// is named and left out (an image, audio, a binary resource); an embedded text resource is
// kept with its URI; a resource link is named with how the person can attach it;
// `structuredContent` is added as JSON unless a text block already carries it; `isError`
// makes it an error result. The whole is bounded by `mcpMaxOutputTokens` (counted at DeepSeek's
// ~0.3 tokens per character), head and tail kept, before the engine's own bound applies.

import type { ToolOutput } from "../../src/contract/index.js";
import type { Json, JsonObject } from "./jsonrpc.js";
import { isObject } from "../../src/lib/json.js";

/** Characters per token the bound assumes (DeepSeek: about 0.3 tokens per English character). */
const CHARS_PER_TOKEN = 1 / 0.3;

export function toolOutput(server: string, tool: string, r: JsonObject, maxTokens: number): ToolOutput {
  const parts: string[] = [];
  const left: string[] = [];
  const content = Array.isArray(r.content) ? r.content : [];
  for (const c of content) {
    if (!isObject(c)) continue;
    const text = contentText(server, c, left);
    if (text !== undefined) parts.push(text);
  }
  if (r.structuredContent !== undefined && r.structuredContent !== null) {
    const json = JSON.stringify(r.structuredContent);
    const carried = parts.some((p) => sameJson(p, r.structuredContent as Json));
    if (!carried) parts.push(`structured result: ${json}`);
  }
  if (left.length) parts.push(`[deepcode left out what the model cannot read (it reads text only): ${left.join("; ")}]`);
  const isError = r.isError === true;
  let text = parts.join("\n\n");
  if (text === "") text = isError ? "The tool failed and said nothing more." : "(the tool returned no content)";
  const bounded = bound(text, maxTokens);
  const kb = Buffer.byteLength(bounded.text) >= 1024 ? `${(Buffer.byteLength(bounded.text) / 1024).toFixed(1)} KB` : `${Buffer.byteLength(bounded.text)} bytes`;
  return {
    content: bounded.text,
    ...(isError ? { isError: true } : {}),
    summary: `${server} ${tool}${isError ? " → error" : ""} (${kb}${bounded.cut ? ", cut" : ""}${left.length ? `, ${left.length} non-text part${left.length === 1 ? "" : "s"} left out` : ""})`,
    meta: { server, tool, ...(left.length ? { leftOut: left } : {}) },
  };
}

/** One content block as text, or undefined (a non-text part, named in `left`). Also used for
 *  prompts' messages. */
export function contentText(server: string, c: JsonObject, left: string[]): string | undefined {
  switch (c.type) {
    case "text":
      return typeof c.text === "string" ? c.text : "";
    case "image":
    case "audio":
      left.push(`${c.type === "image" ? "an image" : "audio"} (${String(c.mimeType ?? "unknown type")}, ${sizeOf(c.data)})`);
      return undefined;
    case "resource": {
      const res = isObject(c.resource) ? c.resource : {};
      const uri = String(res.uri ?? "?");
      if (typeof res.text === "string") return `<resource uri="${uri}"${res.mimeType ? ` mimeType="${String(res.mimeType)}"` : ""}>\n${res.text}\n</resource>`;
      left.push(`the binary resource ${uri} (${String(res.mimeType ?? "unknown type")}, ${sizeOf(res.blob)})`);
      return undefined;
    }
    case "resource_link": {
      const name = typeof c.name === "string" ? c.name : "";
      const desc = typeof c.description === "string" ? ` — ${c.description}` : "";
      return `[resource link: ${name ? `${name} ` : ""}<${String(c.uri ?? "?")}>${c.mimeType ? ` (${String(c.mimeType)})` : ""}${desc}; the person can attach it with @${server}:${String(c.uri ?? "")}]`;
    }
    default:
      left.push(`a part of type ${String(c.type)}`);
      return undefined;
  }
}

export function bound(text: string, maxTokens: number): { text: string; cut: boolean } {
  const max = Math.floor(maxTokens * CHARS_PER_TOKEN);
  if (text.length <= max) return { text, cut: false };
  const head = Math.floor(max * 0.7);
  const tail = max - head;
  const cut = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n[… ${cut} characters cut by deepcode: the result is longer than mcpMaxOutputTokens (${maxTokens} tokens); ask the tool for less …]\n${text.slice(text.length - tail)}`,
    cut: true,
  };
}

function sameJson(text: string, v: Json): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(v);
  } catch {
    return false; // not JSON: it does not carry the structured result
  }
}

function sizeOf(data: Json | undefined): string {
  if (typeof data !== "string") return "size unknown";
  const bytes = Math.floor((data.length * 3) / 4);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`;
}
