// DSML: the markup DeepSeek models were trained to write tool calls in. Served through the
// API, a reply sometimes carries it as plain text with `finish_reason: stop` and no
// `tool_calls` (public reports from 2026 against V3.2 and V4 Flash/Pro):
//
//   <｜DSML｜tool_calls>
//   <｜DSML｜invoke name="Read">
//   <｜DSML｜parameter name="file_path" string="true">src/a.ts</｜DSML｜parameter>
//   <｜DSML｜parameter name="limit" string="false">20</｜DSML｜parameter>
//   </｜DSML｜invoke>
//   </｜DSML｜tool_calls>
//
// Variants seen and tolerated here: ASCII `|` or `‖` for the full-width `｜`, doubled bars
// (`<｜｜DSML｜｜`, `< | | DSML | |`), spaces inside the marker, the wrapper names
// `function_calls` (V3.2), `tool_use` and `calls`, no wrapper at all (bare invokes), a wrapper
// opener without its `>`, typographic quotes around attribute values, a missing `</…invoke>`
// before the next invoke or the wrapper's closer, closing tags missing at the end of the reply
// (the value then runs to the end), a JSON object written straight inside the invoke instead of
// parameters, and the same markup without the DSML marker (`<function_calls>` / `<invoke
// name=…>` / `<parameter name=…>`, the XML form models also imitate). `string="false"`
// means the value is JSON; a parameter without `string` is typed by the tool's schema.
// Not handled: a parameter value that itself contains a DSML tag (it ends the value there).

import type { JsonObject, JsonSchema, JsonValue } from "../../contract/index.js";
import { repairJson } from "./json-repair.js";
import { MAX_JSON_DEPTH, textDepth } from "../../lib/json.js";

export interface FoundCall {
  name: string;
  input: JsonObject;
}

/** Calls found in a text, and the text with the markup of the kept calls removed. */
export interface ScanResult {
  calls: FoundCall[];
  rest: string;
}

/** A stretch of text that is markup, and the kept calls it holds. */
export interface Block {
  start: number;
  end: number;
  calls: FoundCall[];
}

export interface ScanOptions {
  /** Keep only calls naming a tool this accepts. Markup that yields no kept call stays in the text. */
  known?: (name: string) => boolean;
  /** The declared type of a tool's parameter (dot paths allowed), for values without `string="…"`. */
  paramType?: (tool: string, param: string) => JsonSchema["type"] | undefined;
}

interface Tag {
  close: boolean;
  kind: "wrapper" | "invoke" | "parameter";
  attrs: Record<string, string>;
  selfClose: boolean;
  start: number;
  end: number;
}

interface OpenBlock extends Block {
  wrapped: boolean;
}

/** The DSML marker: one or two bars (full-width, ASCII or double), spaces allowed. */
export const MARKER = String.raw`(?:[｜|‖]\s*){1,2}DSML\s*(?:[｜|‖]\s*){1,2}`;
const QUOTED = String.raw`"[^"\n]*"|'[^'\n]*'|“[^”\n]*”|[^\s>"'“”/]+`;
const ATTRS = String.raw`((?:\s+[\w-]+\s*=\s*(?:${QUOTED}))*)\s*(\/?)\s*`;
const TAG = new RegExp(
  String.raw`<(\/?)\s*(?:${MARKER}(tool_calls|function_calls|tool_use|calls|invoke|parameter)\b${ATTRS}>?|(function_calls|invoke|parameter)\b${ATTRS}>)`,
  "g",
);
const ATTR = new RegExp(String.raw`([\w-]+)\s*=\s*(${QUOTED})`, "g");

/** Does the text contain DSML (or its marker-less XML form) at all (cheap pre-check)? */
export function hasDsml(text: string): boolean {
  return /[｜|‖]\s*DSML\s*[｜|‖]|<\/?(?:invoke|function_calls)\b/.test(text);
}

export function parseDsml(text: string, opts: ScanOptions = {}): ScanResult {
  return withoutBlocks(text, dsmlBlocks(text, opts));
}

/** The text with the blocks cut out, and their calls. */
export function withoutBlocks(text: string, blocks: readonly Block[]): ScanResult {
  const calls: FoundCall[] = [];
  let rest = "";
  let at = 0;
  for (const b of blocks) {
    calls.push(...b.calls);
    rest += text.slice(at, b.start);
    at = b.end;
  }
  return { calls, rest: rest + text.slice(at) };
}

/** The DSML blocks of a text that hold at least one call of a known tool. */
export function dsmlBlocks(text: string, opts: ScanOptions = {}): Block[] {
  if (!hasDsml(text)) return [];
  const blocks: OpenBlock[] = [];
  let block: OpenBlock | null = null;
  let invoke: (FoundCall & { from: number; params: number; attrArgs?: string }) | null = null;
  let param: { name: string; mode: "string" | "json" | "untyped"; from: number } | null = null;

  const endParam = (at: number, closed: boolean): void => {
    if (param === null || invoke === null) return;
    invoke.input[param.name] = paramValue(text.slice(param.from, at), param.mode, closed, () => opts.paramType?.(invoke!.name, param!.name));
    invoke.params++;
    param = null;
  };
  const endInvoke = (at: number): void => {
    if (invoke !== null && invoke.params === 0) {
      // No parameters: the arguments may be a JSON object written straight inside the invoke.
      // …or as an attribute (`<invoke name="X" arguments='{…}'/>`).
      const body = bodyObject(text.slice(invoke.from, at)) ?? (invoke.attrArgs === undefined ? null : bodyObject(invoke.attrArgs));
      if (body) invoke.input = body;
    }
    if (invoke !== null && block !== null && invoke.name !== "") block.calls.push({ name: invoke.name, input: invoke.input });
    invoke = null;
  };
  const endBlock = (): void => {
    if (block !== null) blocks.push(block);
    block = null;
  };

  for (const tag of tags(text)) {
    if (param !== null) {
      const closesParam = tag.kind === "parameter" && tag.close;
      endParam(tag.start, closesParam);
      if (closesParam) {
        block!.end = tag.end;
        continue;
      }
    }
    if (tag.kind === "wrapper") {
      if (!tag.close) {
        endInvoke(tag.start);
        endBlock();
        block = { start: tag.start, end: tag.end, wrapped: true, calls: [] };
      } else if (block !== null) {
        endInvoke(tag.start);
        block.end = tag.end;
        endBlock();
      }
    } else if (tag.kind === "invoke") {
      if (!tag.close) {
        endInvoke(tag.start);
        if (block === null) block = { start: tag.start, end: tag.end, wrapped: false, calls: [] };
        const attrArgs = tag.attrs.arguments ?? tag.attrs.parameters ?? tag.attrs.input;
        invoke = { name: (tag.attrs.name ?? "").trim(), input: {}, from: tag.end, params: 0, ...(attrArgs !== undefined ? { attrArgs } : {}) };
        block.end = tag.end;
        if (tag.selfClose) endInvoke(tag.end);
      } else if (block !== null) {
        endInvoke(tag.start);
        block.end = tag.end;
        // A bare invoke is its own block: prose after it is not markup.
        if (!block.wrapped) endBlock();
      }
    } else if (!tag.close && invoke !== null && block !== null) {
      block.end = tag.end;
      const name = (tag.attrs.name ?? "").trim();
      if (name === "") continue;
      const mode = tag.attrs.string === undefined ? "untyped" : tag.attrs.string.toLowerCase() === "false" ? "json" : "string";
      if (tag.selfClose) {
        (invoke as FoundCall).input[name] = tag.attrs.value ?? "";
        (invoke as { params: number }).params++;
      } else param = { name, mode, from: tag.end };
    } else if (block !== null) {
      block.end = tag.end; // a stray closer inside a block belongs to the markup
    }
  }
  if (param !== null) {
    endParam(text.length, false);
    block!.end = text.length;
  }
  if (invoke !== null && block !== null && (invoke as { params: number }).params === 0) block.end = text.length;
  endInvoke(text.length);
  endBlock();

  const known = opts.known ?? ((): boolean => true);
  const out: Block[] = [];
  for (const b of blocks) {
    const kept = b.calls.filter((c) => known(c.name));
    if (kept.length > 0) out.push({ start: b.start, end: b.end, calls: kept });
  }
  return out;
}

/** A JSON object written as an invoke's body (a stray `</parameter>` after it is residue). */
function bodyObject(raw: string): JsonObject | null {
  const body = raw.replace(/<\/\s*(?:[｜|‖]\s*){0,2}(?:DSML\s*(?:[｜|‖]\s*){1,2})?parameter\s*>/g, "").trim();
  if (!body.startsWith("{")) return null;
  const fixed = repairJson(body);
  return fixed.ok ? fixed.value : null;
}

function* tags(text: string): Generator<Tag> {
  TAG.lastIndex = 0;
  for (const m of text.matchAll(TAG)) {
    const attrs: Record<string, string> = {};
    const kindName = m[2] ?? m[5];
    for (const a of (m[3] ?? m[6] ?? "").matchAll(ATTR)) attrs[a[1].toLowerCase()] = unquote(a[2]);
    yield {
      close: m[1] === "/",
      kind: kindName === "invoke" ? "invoke" : kindName === "parameter" ? "parameter" : "wrapper",
      attrs,
      selfClose: (m[4] ?? m[7]) === "/",
      start: m.index,
      end: m.index + m[0].length,
    };
  }
}

function unquote(v: string): string {
  const q = v[0];
  if (q === '"' || q === "'" || q === "“") return v.slice(1, -1);
  return v;
}

/** A parameter's value. `closed`: it ended with its own closing tag, so it is taken verbatim;
 *  otherwise the layout whitespace before whatever ended it is dropped. */
function paramValue(raw: string, mode: "string" | "json" | "untyped", closed: boolean, declared: () => JsonSchema["type"] | undefined): JsonValue {
  let value = raw;
  if (!closed) value = value.replace(/<\/\s*parameter\s*>\s*$/, "").trimEnd();
  if (mode === "string") return value;
  if (mode === "untyped") {
    const type = declared();
    const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
    if (types.length === 0 || types.includes("string")) return value;
  }
  const json = value.trim();
  // Nested too deep to walk: kept as the text it is (validation refuses it by type).
  if (textDepth(json, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return value;
  try {
    return JSON.parse(json) as JsonValue;
  } catch {
    // Not JSON as written: an object may still be recoverable (cut short, trailing garbage);
    // anything else stays the text the model wrote, for validation to judge.
  }
  if (json.startsWith("{")) {
    const fixed = repairJson(json);
    if (fixed.ok) return fixed.value;
  }
  return value;
}
