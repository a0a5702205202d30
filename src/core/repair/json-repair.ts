// Repair of argument JSON that JSON.parse refuses: DeepSeek models are known to send it cut
// short (a reply that hit its limit mid-call), fenced, or followed by garbage (an extra `}`,
// a trailing comma, prose). The repair is one tolerant left-to-right pass that re-emits the
// text as JSON, then a real JSON.parse: what comes out was parsed by the standard parser.
//
// What it fixes (each named in `fixes`, for the `model.repair` notice):
// - a code fence around the object; text before the first `{`; text after the object ends
// - an unterminated string (closed; a dangling `\` or cut `\u` escape dropped)
// - open `[` / `{` at the end (closed in the right order), or closed by the wrong bracket
// - trailing or doubled commas; a missing comma between two members
// - a dangling key (`{"a"` or `{"a":`): its value becomes null
// - a truncated literal at the very end (`tru` → true, `1.` → 1); Python's True/False/None
// - raw control characters inside strings (escaped); `\'` (unescaped); bare identifier keys
// - a whole object encoded as a JSON string (unwrapped)
// It never guesses content: a value that is not JSON where one is expected is an error.

import type { JsonObject } from "../../contract/index.js";
import { MAX_JSON_DEPTH, isObject, textDepth } from "../../lib/json.js";

export type JsonRepair = { ok: true; value: JsonObject; fixes: string[] } | { ok: false; reason: string };

type Frame = { kind: "obj"; expect: "key" | "colon" | "value" | "comma"; key: string } | { kind: "arr"; expect: "value" | "comma" };

class RepairError extends Error {}

const LITERALS: Record<string, string> = { true: "true", false: "false", null: "null", True: "true", False: "false", None: "null" };
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export function repairJson(raw: string): JsonRepair {
  // Nothing this deep is mended: the caller's walks of the result would overflow the stack.
  const depth = textDepth(raw, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) return { ok: false, reason: `the JSON nests more than ${MAX_JSON_DEPTH} levels deep` };
  const fixes = new Set<string>();
  let text = raw.trim();
  const fenced = /^```[\w-]*[ \t]*\r?\n?([\s\S]*?)(?:\r?\n?```\s*)?$/.exec(text);
  if (fenced && text.startsWith("```")) {
    text = fenced[1].trim();
    fixes.add("removed a code fence");
  }
  if (text === "") return { ok: true, value: {}, fixes: [...fixes, "read empty arguments as {}"] };

  const direct = tryParse(text);
  if (direct.ok) {
    if (isObject(direct.value)) return { ok: true, value: direct.value, fixes: [...fixes] };
    if (typeof direct.value === "string") {
      const inner = tryParse(direct.value.trim());
      if (inner.ok && isObject(inner.value)) return { ok: true, value: inner.value, fixes: [...fixes, "unwrapped an object sent as a JSON string"] };
    }
    return { ok: false, reason: `the arguments must be a JSON object, not ${kindOf(direct.value)}` };
  }

  let rewritten: string;
  try {
    rewritten = rewrite(text, fixes);
  } catch (err) {
    return { ok: false, reason: err instanceof RepairError ? err.message : String(err) };
  }
  const parsed = tryParse(rewritten);
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  if (!isObject(parsed.value)) return { ok: false, reason: `the arguments must be a JSON object, not ${kindOf(parsed.value)}` };
  return { ok: true, value: parsed.value, fixes: [...fixes] };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

function kindOf(v: unknown): string {
  if (Array.isArray(v)) return "an array";
  if (v === null) return "null";
  return `a ${typeof v}`;
}

/** One pass over `text` from its first `{`, emitting compact JSON. Throws RepairError when a
 *  character cannot be given a meaning. */
function rewrite(text: string, fixes: Set<string>): string {
  const start = text.indexOf("{");
  if (start < 0) throw new RepairError("no JSON object was found");
  if (start > 0) fixes.add("dropped text before the object");
  const stack: Frame[] = [];
  let out = "";
  let pendingComma = false;
  let i = start;

  const top = (): Frame | undefined => stack[stack.length - 1];
  const valueDone = (): void => {
    const f = top();
    if (f) f.expect = "comma";
  };
  /** Before a member: the comma that was held back, or a missing one. */
  const separate = (): void => {
    const f = top();
    if (f && f.expect === "comma") {
      fixes.add("inserted a missing comma");
      f.expect = f.kind === "obj" ? "key" : "value";
      pendingComma = true;
    }
    if (pendingComma) out += ",";
    pendingComma = false;
  };
  const expectingValue = (): boolean => {
    const f = top();
    return f === undefined || f.expect === "value" || f.expect === "comma";
  };
  const closeFrame = (): void => {
    const f = stack.pop()!;
    if (pendingComma) fixes.add("dropped a trailing comma");
    pendingComma = false;
    if (f.kind === "obj" && (f.expect === "colon" || f.expect === "value")) {
      out += f.expect === "colon" ? ":null" : "null";
      fixes.add(`set the dangling key "${f.key}" to null`);
    }
    out += f.kind === "obj" ? "}" : "]";
    valueDone();
  };

  while (i < text.length) {
    const c = text[i];
    if (c === " " || c === "\n" || c === "\r" || c === "\t") {
      i++;
      continue;
    }
    if (stack.length === 0 && out !== "") {
      fixes.add(`dropped trailing text after the object (${JSON.stringify(clip(text.slice(i)))})`);
      return out;
    }
    if (c === "{" || c === "[") {
      if (!expectingValue()) throw new RepairError(`unexpected "${c}" where a key was expected`);
      separate();
      stack.push(c === "{" ? { kind: "obj", expect: "key", key: "" } : { kind: "arr", expect: "value" });
      out += c;
      i++;
    } else if (c === "}" || c === "]") {
      const want = c === "}" ? "obj" : "arr";
      const at = stack.map((f) => f.kind).lastIndexOf(want);
      if (at < 0) {
        fixes.add(`dropped a stray "${c}"`);
      } else {
        if (at < stack.length - 1) fixes.add(`closed an unclosed bracket before "${c}"`);
        while (stack.length > at) closeFrame();
      }
      i++;
    } else if (c === ":") {
      const f = top();
      if (f?.kind !== "obj" || f.expect !== "colon") throw new RepairError('unexpected ":"');
      out += ":";
      f.expect = "value";
      i++;
    } else if (c === ",") {
      const f = top();
      if (f && f.expect === "comma") {
        f.expect = f.kind === "obj" ? "key" : "value";
        pendingComma = true;
      } else {
        fixes.add("dropped a stray comma");
      }
      i++;
    } else if (c === '"') {
      const s = readString(text, i, fixes);
      i = s.end;
      placeToken(s.json, JSON.parse(s.json) as string, true);
    } else {
      const m = /^[A-Za-z0-9_+\-.$]+/.exec(text.slice(i, i + 200));
      if (!m) throw new RepairError(`unexpected ${JSON.stringify(c)} at position ${i}`);
      const word = m[0];
      i += word.length;
      const f = top();
      if (f?.kind === "obj" && (f.expect === "key" || (f.expect === "comma" && /^[A-Za-z_$][\w$]*$/.test(word) && text[skipWs(text, i)] === ":"))) {
        fixes.add("quoted a bare key");
        placeToken(JSON.stringify(word), word, true);
      } else {
        placeToken(literal(word, i >= text.length, fixes), word, false);
      }
    }
  }

  if (stack.length > 0) {
    const open = stack.length;
    while (stack.length > 0) closeFrame();
    fixes.add(open === 1 ? "closed 1 open bracket" : `closed ${open} open brackets`);
  }
  return out;

  function placeToken(json: string, raw: string, isString: boolean): void {
    const f = top();
    if (f?.kind === "obj" && (f.expect === "key" || f.expect === "comma") && isString) {
      separate();
      out += json;
      f.expect = "colon";
      f.key = raw;
      return;
    }
    if (f?.kind === "obj" && f.expect === "colon") throw new RepairError(`expected ":" after the key "${f.key}"`);
    if (f?.kind === "obj" && f.expect === "key") throw new RepairError(`expected a key, found ${clip(json)}`);
    if (f === undefined) throw new RepairError("a value outside the object");
    separate();
    out += json;
    valueDone();
  }
}

/** A string from the opening quote at `from`; returns it as valid JSON and where it ended. */
function readString(text: string, from: number, fixes: Set<string>): { json: string; end: number } {
  let out = '"';
  let i = from + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') return { json: `${out}"`, end: i + 1 };
    if (c === "\\") {
      const e = text[i + 1];
      if (e === undefined) {
        fixes.add("dropped a dangling escape");
        i++;
        continue;
      }
      if ('"\\/bfnrt'.includes(e)) {
        out += `\\${e}`;
        i += 2;
      } else if (e === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          out += `\\u${hex}`;
          i += 6;
        } else if (i + 6 > text.length) {
          fixes.add("dropped a cut \\u escape");
          i = text.length;
        } else {
          out += "\\\\u";
          fixes.add("escaped an invalid escape");
          i += 2;
        }
      } else if (e === "'") {
        out += "'";
        fixes.add("unescaped \\'");
        i += 2;
      } else {
        out += "\\\\";
        fixes.add("escaped an invalid escape");
        i += 1;
      }
      continue;
    }
    const code = c.charCodeAt(0);
    if (code < 0x20) {
      out += `\\u${code.toString(16).padStart(4, "0")}`;
      fixes.add("escaped raw control characters in a string");
    } else {
      out += c;
    }
    i++;
  }
  fixes.add("closed an unterminated string");
  return { json: `${out}"`, end: text.length };
}

/** A bare word where a value is expected. At the very end of the text it may be cut short. */
function literal(word: string, atEnd: boolean, fixes: Set<string>): string {
  if (word in LITERALS) {
    if (LITERALS[word] !== word) fixes.add(`read ${word} as ${LITERALS[word]}`);
    return LITERALS[word];
  }
  if (NUMBER.test(word)) return word;
  if (atEnd) {
    for (const full of ["true", "false", "null"]) {
      if (full.startsWith(word)) {
        fixes.add(`completed the cut literal "${word}" as ${full}`);
        return full;
      }
    }
    let n = word;
    while (n !== "" && !NUMBER.test(n)) n = n.slice(0, -1);
    if (n !== "") {
      fixes.add(`read the cut number "${word}" as ${n}`);
      return n;
    }
    fixes.add(`read the cut value "${word}" as null`);
    return "null";
  }
  throw new RepairError(`${JSON.stringify(clip(word))} is not a JSON value`);
}

function skipWs(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i])) i++;
  return i;
}

function clip(s: string): string {
  const one = s.trim();
  return one.length > 40 ? `${one.slice(0, 39)}…` : one;
}
