// A `tools/call` result as the model reads it. DeepSeek reads text only, so what is not text
// is named and left out (an image, audio, a binary resource); an embedded text resource is
// kept with its URI; a resource link is named with how the person can attach it;
// `structuredContent` is added as JSON unless the text already carries it (the same JSON, or
// every value of it — server-filesystem sends its text twice this way), and base64 data in it
// is named, never sent as text; `isError` makes it an error result. The whole is bounded by
// `mcpMaxOutputTokens` / MAX_MCP_OUTPUT_TOKENS in tokens when the person sets one (deepcode's
// estimate of DeepSeek's tokenizer: src/lib/tokens.ts), head and tail kept; the engine's own
// byte bound (`toolResultMaxBytes`) then leaves it whole (ToolOutput.maxBytes). Unset, the
// engine's bound is the one: a result costs what any tool's may (cost first).

import type { ToolOutput } from "../../src/contract/index.js";
import type { Json, JsonObject } from "./jsonrpc.js";
import { isObject } from "../../src/lib/json.js";
import { estimateTokens } from "../../src/lib/tokens.js";

/** A string this long of base64 characters only is data, not text for the model. */
const BASE64_MIN = 200;

export function toolOutput(server: string, tool: string, r: JsonObject, maxTokens: number | undefined): ToolOutput {
  const parts: string[] = [];
  const left: string[] = [];
  const content = Array.isArray(r.content) ? r.content : [];
  for (const c of content) {
    if (!isObject(c)) continue;
    const text = contentText(server, c, left);
    if (text !== undefined) parts.push(text);
  }
  if (left.length) parts.push(`[deepcode left out what the model cannot read (it reads text only): ${left.join("; ")}]`);
  if (r.structuredContent !== undefined && r.structuredContent !== null) {
    const s = r.structuredContent as Json;
    const carried = parts.some((p) => sameJson(p, s)) || (parts.length > 0 && carriedBy(s, parts.join("\n"), left.length > 0));
    if (!carried) parts.push(`structured result: ${JSON.stringify(s, (_k, v: unknown) => (isBase64(v) ? `[${sizeOf(v as string)} of base64 data left out]` : v))}`);
  }
  const isError = r.isError === true;
  let text = parts.join("\n\n");
  if (text === "") text = isError ? "The tool failed and said nothing more." : "(the tool returned no content)";
  const bounded = maxTokens === undefined ? { text, cut: false } : bound(text, maxTokens);
  const kb = Buffer.byteLength(bounded.text) >= 1024 ? `${(Buffer.byteLength(bounded.text) / 1024).toFixed(1)} KB` : `${Buffer.byteLength(bounded.text)} bytes`;
  return {
    content: bounded.text,
    ...(isError ? { isError: true } : {}),
    summary: `${server} ${tool}${isError ? " → error" : ""} (${kb}${bounded.cut ? ", cut" : ""}${left.length ? `, ${left.length} non-text part${left.length === 1 ? "" : "s"} left out` : ""})`,
    meta: { server, tool, ...(left.length ? { leftOut: left } : {}) },
    // Bounded here by the person's mcpMaxOutputTokens: the engine's byte bound does not cut it
    // again (with room for a note a hook adds after it, mod.ts's tool.result). Without one, the
    // engine's bound on any tool result applies (toolResultMaxBytes, 32 KiB by default).
    ...(maxTokens === undefined ? {} : { maxBytes: Buffer.byteLength(bounded.text) + 2048 }),
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
  // Every character weighs at least 0.2 tokens (src/lib/tokens.ts): a text longer than five
  // characters a token is over without counting it all (a 20 MB result is not walked twice).
  const over = text.length * 0.2 > maxTokens;
  if (!over && estimateTokens(text) <= maxTokens) return { text, cut: false };
  // Characters for `maxTokens` at this text's own density (its ends sampled), shrunk until the
  // estimate of what is kept agrees.
  const sample = text.length > 400_000 ? text.slice(0, 200_000) + text.slice(-200_000) : text;
  let max = Math.floor((sample.length * maxTokens) / Math.max(1, estimateTokens(sample)));
  let head = "";
  let tail = "";
  for (let i = 0; i < 20 && max > 0; i++, max = Math.floor(max * 0.9)) {
    head = text.slice(0, Math.floor(max * 0.7));
    tail = text.slice(text.length - (max - head.length));
    if (estimateTokens(head) + estimateTokens(tail) <= maxTokens) break;
  }
  const cut = text.length - head.length - tail.length;
  return {
    text: `${head}\n[… ${cut} characters cut by deepcode: the result is longer than mcpMaxOutputTokens (${maxTokens} tokens); ask the tool for less …]\n${tail}`,
    cut: true,
  };
}

/** Whether the text already says everything `s` holds: each of its values (strings, numbers)
 *  appears in it; base64 data counts as said when the content named a non-text part. */
function carriedBy(s: Json, text: string, namedData: boolean): boolean {
  const leaves: string[] = [];
  const walk = (v: Json): void => {
    if (typeof v === "string") leaves.push(v);
    else if (typeof v === "number" || typeof v === "boolean") leaves.push(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null) Object.values(v).forEach(walk);
  };
  walk(s);
  return leaves.every((l) => (isBase64(l) ? namedData : text.includes(l)));
}

function isBase64(v: unknown): boolean {
  return typeof v === "string" && v.length >= BASE64_MIN && /^[A-Za-z0-9+/=\s]+$/.test(v);
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
