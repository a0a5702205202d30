// Scavenging: a reply that ended (`finish_reason` stop, or null when the stream ended early)
// with no `tool_calls`, but whose text holds tool calls the model meant to make, is rewritten
// into the reply it should have been, before it enters the log. Where calls are looked for:
//
// 1. `content`: DSML markup, the other markup forms (markup.ts) and JSON call objects.
// 2. `reasoning_content`, only when `content` is empty: the model "thought" the call and
//    stopped. With visible content, reasoning is left alone: it often holds example or
//    rejected calls.
//
// Markup the person was shown as an example is not run: a block that starts inside a fenced
// code block or an inline code span, or right after prose that presents an example ("for
// example:", "like this:"), stays text. When in doubt, show it: the person can ask for the call.
//
// Only registered tool names count; duplicates (same name, same canonical arguments) are
// dropped; at most `max` calls are kept (the rest are dropped silently: the log then shows
// only the calls that ran). The recognised markup is cut out of `content`, the prose kept, and
// so are leftover markup tokens (an opener with nothing after it, `<｜end▁of▁sentence｜>`):
// the answer the person sees holds none of it. Content left empty becomes null. Reasoning is
// never rewritten.

import type { JsonSchema, ModelResponse, ToolCall } from "../../contract/index.js";
import { callKey, describeCall } from "./canonical.js";
import { dsmlBlocks, type Block, type FoundCall, type ScanOptions } from "./dsml.js";
import { propertySchema } from "./flatten.js";
import { jsonBlocks } from "./json-calls.js";
import { hasResidue, markupBlocks, stripResidue } from "./markup.js";

export type ScavengeKind = "scavenged-dsml" | "scavenged-markup" | "scavenged-json-content" | "scavenged-json-reasoning" | "markup-residue";

export interface ScavengeOptions {
  toolNames: ReadonlyArray<string>;
  /** The parameter schema of a tool, to type DSML values written without `string="…"`. */
  schemaOf?: (tool: string) => JsonSchema | undefined;
  /** At most this many calls are kept. */
  max: number;
  /** A fresh tool call id. */
  nextId: () => string;
}

export interface Scavenged {
  response: ModelResponse;
  repairs: Array<{ kind: ScavengeKind; detail: string }>;
}

type Kinded = Block & { kind: ScavengeKind };

/** The rewritten reply and one repair per kept call, or null when there is nothing to do. */
export function scavengeResponse(response: ModelResponse, opts: ScavengeOptions): Scavenged | null {
  const msg = response.message;
  const content = msg.content ?? "";
  if (msg.tool_calls !== undefined && msg.tool_calls.length > 0) return residueOnly(response, content);
  if (response.finishReason !== "stop" && response.finishReason !== null) return residueOnly(response, content);
  const names = new Set(opts.toolNames);
  const scan: ScanOptions = {
    known: (name) => names.has(name),
    paramType: (tool, param) => propertySchema(opts.schemaOf?.(tool), param)?.type,
  };

  const fromContent = content.trim() !== "";
  const text = fromContent ? content : (msg.reasoning_content ?? "");
  if (text.trim() === "") return null;
  const blocks = runnable(text, [
    ...dsmlBlocks(text, scan).map((b) => ({ ...b, kind: "scavenged-dsml" as const })),
    ...markupBlocks(text, scan).map((b) => ({ ...b, kind: "scavenged-markup" as const })),
    ...jsonBlocks(text, scan.known).map((b) => ({ ...b, kind: fromContent ? ("scavenged-json-content" as const) : ("scavenged-json-reasoning" as const) })),
  ]);

  const seen = new Set<string>();
  const kept: Array<FoundCall & { kind: ScavengeKind }> = [];
  for (const b of blocks) {
    for (const c of b.calls) {
      const key = callKey(c.name, c.input);
      if (seen.has(key) || kept.length >= Math.max(0, opts.max)) continue;
      seen.add(key);
      kept.push({ ...c, kind: b.kind });
    }
  }
  if (kept.length === 0) return fromContent ? residueOnly(response, content) : null;

  let newContent: string | null = null;
  if (fromContent) {
    // A `<tool_call>` wrapper around a taken block is left as an empty pair: residue too.
    const rest = cut(content, blocks).replace(/<tool_call>\s*<\/tool_call>/g, "").replace(/\n{3,}/g, "\n\n").trim();
    newContent = rest === "" ? null : rest;
  }
  const where = fromContent ? "" : " from reasoning";
  const toolCalls: ToolCall[] = kept.map((c) => ({ id: opts.nextId(), type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } }));
  return {
    response: { ...response, message: { ...msg, content: newContent, tool_calls: toolCalls }, finishReason: "tool_calls" },
    repairs: kept.map((c) => ({ kind: c.kind, detail: `${describeCall(c.name, c.input)}${c.kind === "scavenged-json-reasoning" ? "" : where}` })),
  };
}

/** The blocks that may run: not quoted, not overlapping an earlier one, in text order. */
function runnable(text: string, found: Kinded[]): Kinded[] {
  const order: ScavengeKind[] = ["scavenged-dsml", "scavenged-markup"];
  const sorted = [...found].sort((a, b) => a.start - b.start || rank(a) - rank(b));
  function rank(b: Kinded): number {
    const i = order.indexOf(b.kind);
    return i < 0 ? order.length : i;
  }
  const blocks: Kinded[] = [];
  for (const b of sorted) {
    const prev = blocks[blocks.length - 1];
    if (prev && b.start < prev.end) continue;
    blocks.push(b);
  }
  const fences = fencedRanges(text, blocks);
  return blocks.filter((b) => !fences.some(([s, e]) => b.start >= s && b.start < e) && !inInlineCode(text, b.start) && !presentedAsExample(text, b.start));
}

/** Fenced code blocks (``` or ~~~ at a line start), ignoring fence lines inside markup blocks
 *  (a Write's content may itself hold a fence). An unclosed fence runs to the end. */
function fencedRanges(text: string, blocks: readonly Block[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let open: { at: number; mark: string } | null = null;
  let at = 0;
  for (const line of text.split("\n")) {
    const inBlock = blocks.some((b) => at > b.start && at < b.end);
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (m && !inBlock) {
      if (open === null) open = { at, mark: m[1][0] };
      else if (m[1][0] === open.mark && line.trim() === m[1]) {
        out.push([open.at, at + line.length]);
        open = null;
      }
    }
    at += line.length + 1;
  }
  if (open !== null) out.push([open.at, text.length]);
  return out;
}

function inInlineCode(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  return ((text.slice(lineStart, at).match(/`/g) ?? []).length % 2) === 1;
}

/** The prose right before the block introduces an example of the markup, not a call. */
function presentedAsExample(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 160), at).split(/\n\s*\n/).pop() ?? "";
  return /\b(for example|an example|example of|e\.g\.|for instance|like this|looks like|such as)\b[^.!?]*:?\s*$/i.test(before);
}

/** The text without the blocks, and without leftover markup tokens outside fences. */
function cut(text: string, blocks: readonly Block[]): string {
  const fences = fencedRanges(text, blocks);
  let out = "";
  let at = 0;
  const keep = (from: number, to: number): void => {
    let i = from;
    for (const [s, e] of fences) {
      if (e <= i || s >= to) continue;
      out += stripResidue(text.slice(i, Math.max(i, s))) + text.slice(Math.max(i, s), Math.min(e, to));
      i = Math.min(e, to);
    }
    out += stripResidue(text.slice(i, to));
  };
  for (const b of blocks) {
    keep(at, b.start);
    at = b.end;
  }
  keep(at, text.length);
  return out;
}

/** A reply with no calls to take whose text still holds markup tokens: they are removed. */
function residueOnly(response: ModelResponse, content: string): Scavenged | null {
  if (!content || !hasResidue(content)) return null;
  const rest = cut(content, []).trim();
  if (rest === content.trim()) return null;
  const message = { ...response.message, content: rest === "" ? (response.message.tool_calls?.length ? null : "") : rest };
  return { response: { ...response, message }, repairs: [{ kind: "markup-residue", detail: "removed tool-call markup tokens left in the answer" }] };
}
