// Tool-call markup other than DSML that DeepSeek models write as text (public reports; each form
// is a corpus case in test/fixtures/model-failures/):
//
//   V3 special tokens   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
//                       ```json {…} ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//                       (V3.1: <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>; the
//                       bars may be ASCII and `▁` an underscore or a space; closers may be missing)
//   tool_call tags      <tool_call name="NAME" arguments='{…}'/>   <tool_call id=… name=NAME>{…}</tool_call>
//   function= tags      <function=NAME>{…}</function>   <function=NAME><parameter=k>v</parameter></function>
//   tool-named DSML     <｜DSML｜NAME><k>v</k>…</｜DSML｜NAME>
//   function_call tags  <function_call><invoke_name>NAME</invoke_name><parameters><k>v</k>…</parameters></function_call>
//                       (Luce-Org/lucebox#670; the parameters may also be one JSON object)
//   tool-named element  <tool_call><NAME><k>v</k>…</NAME></tool_call> (AppsGanin/ai-free-vscode#17)
//
// Only known tool names count; a block whose arguments cannot be read as an object is left as
// text. Markup tokens that are left over once the calls are taken (an opener with nothing after
// it, `<｜end▁of▁sentence｜>`, `<|eot_id|>`) are residue: `stripResidue` removes them.

import type { JsonObject } from "../../contract/index.js";
import type { Block, FoundCall, ScanOptions } from "./dsml.js";
import { MARKER } from "./dsml.js";
import { repairJson } from "./json-repair.js";

const BAR = "[｜|]";
const SP = "[▁_ ]";
const tok = (words: string): string => `<${BAR}${words.split(" ").join(SP)}${BAR}>`;
const CALLS_BEGIN = tok("tool calls begin");
const CALLS_END = tok("tool calls end");
const CALL_BEGIN = tok("tool call begin");
const CALL_END = tok("tool call end");
const SEP = tok("tool sep");
const V3_CALL = new RegExp(`${CALL_BEGIN}([\\s\\S]*?)${SEP}([\\s\\S]*?)(?=${CALL_END}|${CALL_BEGIN}|${CALLS_END}|$)(?:${CALL_END})?`, "g");
const V3_BLOCK = new RegExp(`(?:${CALLS_BEGIN})?\\s*(?:${CALL_BEGIN}[\\s\\S]*?(?:${CALL_END}|(?=${CALL_BEGIN})|(?=${CALLS_END})|$)\\s*)+(?:${CALLS_END})?`, "g");

/** Blocks of every form above, in text order. */
export function markupBlocks(text: string, opts: ScanOptions): Block[] {
  const known = opts.known ?? ((): boolean => true);
  const blocks = [...v3Blocks(text, known), ...toolCallTags(text, known), ...functionTags(text, known), ...namedDsml(text, known), ...functionCallTags(text, known)];
  return blocks.sort((a, b) => a.start - b.start);
}

function v3Blocks(text: string, known: (n: string) => boolean): Block[] {
  if (!new RegExp(CALL_BEGIN).test(text)) return [];
  const out: Block[] = [];
  for (const m of text.matchAll(V3_BLOCK)) {
    if (m[0].trim() === "") continue;
    const calls: FoundCall[] = [];
    for (const c of m[0].matchAll(V3_CALL)) {
      // V3: "function" before the separator, the name after it on its own line, then the
      // arguments; V3.1: the name before the separator and the arguments after it.
      const before = c[1].trim();
      let name = before;
      let args = c[2];
      if (before === "function" || before === "") {
        const nl = /^\s*([^\n`{]+?)\s*(?:\n|(?=```|\{))/.exec(args);
        name = nl ? nl[1].trim() : "";
        args = nl ? args.slice(nl[0].length) : "";
      }
      const input = objectOf(args);
      if (name && known(name) && input) calls.push({ name, input });
    }
    if (calls.length) out.push({ start: m.index, end: m.index + m[0].length, calls });
  }
  return out;
}

const ATTR = /([\w-]+)\s*=\s*("[^"]*"|'[^']*'|\{[^>]*\}|[^\s>/]+)/g;

function toolCallTags(text: string, known: (n: string) => boolean): Block[] {
  const out: Block[] = [];
  for (const m of text.matchAll(/<tool_call\b([^>]*?)(\/?)>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of m[1].matchAll(ATTR)) attrs[a[1]] = unquote(a[2]);
    let name = attrs.name?.trim();
    let end = m.index + m[0].length;
    let input: JsonObject | null = attrs.arguments !== undefined ? objectOf(attrs.arguments) : {};
    if (m[2] !== "/") {
      const close = text.indexOf("</tool_call>", end);
      const body = text.slice(end, close < 0 ? text.length : close);
      if (!name) {
        // A bare tag with the name first: `<tool_call>NAME\n{…}` or `<tool_call>NAME({…})`.
        // (A JSON object naming the tool inside the tag is json-calls' form.)
        const head = /^\s*([\w-]+)\s*(?:\(([\s\S]*)\)\s*$|\n([\s\S]*)$|$)/.exec(body);
        const element = head ? null : toolElement(body, known);
        if (element) {
          name = element.name;
          input = element.input;
        } else {
          if (!head) continue;
          name = head[1];
          input = objectOf(head[2] ?? head[3] ?? "");
        }
      } else if (/<parameter\b/.test(body)) input = namedParams(body);
      else if (body.trim() !== "") input = objectOf(body);
      end = close < 0 ? text.length : close + "</tool_call>".length;
    }
    if (!name || !known(name)) continue;
    if (input) out.push({ start: m.index, end, calls: [{ name, input }] });
  }
  return out;
}

/** `<parameter name="k">v</parameter>` pairs; values stay text (validation judges their type). */
function namedParams(body: string): JsonObject {
  const input: JsonObject = {};
  for (const p of body.matchAll(/<parameter\s+name\s*=\s*["']?([\w.-]+)["']?\s*>([\s\S]*?)(?:<\/parameter>|(?=<parameter\b)|$)/g)) input[p[1]] = p[2].replace(/^\n/, "").replace(/\n$/, "");
  return input;
}

function functionTags(text: string, known: (n: string) => boolean): Block[] {
  const out: Block[] = [];
  for (const m of text.matchAll(/<function=([\w-]+)>/g)) {
    const name = m[1];
    if (!known(name)) continue;
    const from = m.index + m[0].length;
    const close = text.indexOf("</function>", from);
    const body = text.slice(from, close < 0 ? text.length : close);
    const input = /<parameter=/.test(body) ? equalsParams(body) : objectOf(body);
    let end = close < 0 ? text.length : close + "</function>".length;
    const wrap = /^\s*<\/tool_call>/.exec(text.slice(end));
    if (wrap) end += wrap[0].length;
    const start = /<tool_call>\s*$/.exec(text.slice(0, m.index))?.index ?? m.index;
    if (input) out.push({ start, end, calls: [{ name, input }] });
  }
  return out;
}

function equalsParams(body: string): JsonObject {
  const input: JsonObject = {};
  for (const p of body.matchAll(/<parameter=([\w.-]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g)) input[p[1]] = p[2].replace(/^\n/, "").replace(/\n$/, "");
  return input;
}

const RESERVED = new Set(["tool_calls", "function_calls", "tool_use", "calls", "invoke", "parameter"]);

function namedDsml(text: string, known: (n: string) => boolean): Block[] {
  const out: Block[] = [];
  for (const m of text.matchAll(new RegExp(`<\\s*${MARKER}([\\w-]+)\\s*>`, "g"))) {
    const name = m[1];
    if (RESERVED.has(name) || !known(name)) continue;
    const from = m.index + m[0].length;
    const closer = new RegExp(`<\\/\\s*${MARKER}${name}\\s*>`).exec(text.slice(from));
    const body = text.slice(from, closer ? from + closer.index : text.length);
    const input: JsonObject = {};
    for (const p of body.matchAll(/<([\w.-]+)>([\s\S]*?)<\/\1>/g)) input[p[1]] = p[2].trim();
    const end = closer ? from + closer.index + closer[0].length : text.length;
    out.push({ start: m.index, end, calls: [{ name, input }] });
  }
  return out;
}

/** The body of a bare `<tool_call>` that is one element named after a known tool, its
 *  parameters as child elements: `<Read><file_path>a</file_path></Read>`. The element must
 *  close or hold at least one parameter, so a tag merely mentioned in prose stays text. */
function toolElement(body: string, known: (n: string) => boolean): { name: string; input: JsonObject } | null {
  const open = /^\s*<([A-Za-z][\w-]*)\s*>/.exec(body);
  if (!open || !known(open[1]) || RESERVED.has(open[1])) return null;
  const name = open[1];
  const close = body.indexOf(`</${name}>`, open[0].length);
  const inner = body.slice(open[0].length, close < 0 ? body.length : close);
  const input = childParams(inner);
  if (close < 0 && Object.keys(input).length === 0) return null;
  return { name, input };
}

/** `<k>v</k>` children, values trimmed text (validation judges their type). */
function childParams(body: string): JsonObject {
  const input: JsonObject = {};
  for (const p of body.matchAll(/<([A-Za-z_][\w.-]*)>([\s\S]*?)<\/\1>/g)) input[p[1]] = p[2].trim();
  return input;
}

/** `<function_call><invoke_name>NAME</invoke_name><parameters>…</parameters></function_call>`;
 *  the closers may be missing at the end of the reply. */
function functionCallTags(text: string, known: (n: string) => boolean): Block[] {
  const out: Block[] = [];
  for (const m of text.matchAll(/<function_call>/g)) {
    const from = m.index + m[0].length;
    const close = text.indexOf("</function_call>", from);
    const next = text.indexOf("<function_call>", from);
    const stop = close >= 0 && (next < 0 || close < next) ? close : next >= 0 ? next : text.length;
    const body = text.slice(from, stop);
    const name = /^\s*<(?:invoke_name|tool_name|name)>\s*([\w-]+)\s*<\/(?:invoke_name|tool_name|name)>/.exec(body);
    if (!name || !known(name[1])) continue;
    const params = /<(parameters|arguments)>([\s\S]*?)(?:<\/\1>|$)/.exec(body.slice(name[0].length));
    const inner = params?.[2] ?? "";
    const input = inner.trim().startsWith("{") ? objectOf(inner) : childParams(inner);
    if (!input) continue;
    const end = stop === close ? close + "</function_call>".length : stop;
    out.push({ start: m.index, end, calls: [{ name: name[1], input }] });
  }
  return out;
}

/** Arguments written as a JSON object, maybe fenced or with garbage around; null if not one. */
function objectOf(raw: string): JsonObject | null {
  const body = raw.trim().replace(/^```[\w-]*\s*/, "").replace(/\s*```\s*$/, "");
  if (body === "") return {};
  if (!body.startsWith("{") && !body.startsWith('"')) return null;
  const fixed = repairJson(body);
  return fixed.ok ? fixed.value : null;
}

function unquote(v: string): string {
  return (v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")) ? v.slice(1, -1) : v;
}

/** Markup tokens with no call left in them: never meant for a person's eyes. */
const RESIDUE = new RegExp(
  [
    `<${BAR}(?:tool${SP}calls?${SP}(?:begin|end)|tool${SP}sep|end${SP}of${SP}sentence)${BAR}>`,
    "<\\|eot_id\\|>",
    // a <tool_call> wrapper whose inner markup was taken as a call
    "<tool_call>\\s*</tool_call>",
    `<\\s*${MARKER}(?:tool_calls|function_calls|tool_use|calls)\\s*>?\\s*$`,
    "\\[(?:END_)?TOOL_REQUEST\\]",
  ].join("|"),
  "g",
);

export function hasResidue(text: string): boolean {
  RESIDUE.lastIndex = 0;
  return RESIDUE.test(text);
}

export function stripResidue(text: string): string {
  return text.replace(RESIDUE, "");
}

