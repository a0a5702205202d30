// A strict JSON parser (RFC 8259) that says where things are. JSON.parse reports a syntax error
// as an offset at best (and newer engines not even that); a person fixing a settings file needs
// the line and column. It also records where every key and array item starts, so a type error
// or a bad permission rule can point at its own line.
//
// Deliberately strict: no comments, no trailing commas, no single quotes. Settings files are
// shared with Claude Code, which reads them as plain JSON too; a message says so when it meets
// `//` or `/*`.

import type { JsonValue } from "../contract/index.js";

export interface JsonPosition {
  line: number;
  column: number;
}

export interface ParsedJson {
  value: JsonValue;
  /** Where each key (and array item) starts, by dotted path: `permissions.allow[2]`. */
  positions: Map<string, JsonPosition>;
  /** Paths of keys that appear twice in one object (the later one wins, as in JSON.parse). */
  duplicates: string[];
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

/** The dotted path of a child: `a.b`, `a[0]`. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === "number") return `${parent}[${key}]`;
  return parent === "" ? key : `${parent}.${key}`;
}

export function parseJson(text: string): ParsedJson {
  return new Parser(text).parseDocument();
}

const MAX_DEPTH = 200;

class Parser {
  private i = 0;
  private readonly positions = new Map<string, JsonPosition>();
  private readonly duplicates: string[] = [];
  private lineStarts: number[] | null = null;

  constructor(private readonly s: string) {
    if (s.charCodeAt(0) === 0xfeff) this.i = 1; // a UTF-8 byte order mark is not content
  }

  parseDocument(): ParsedJson {
    this.ws();
    const value = this.value("", 0);
    this.ws();
    if (this.i < this.s.length) this.fail("unexpected content after the JSON value");
    return { value, positions: this.positions, duplicates: this.duplicates };
  }

  private value(path: string, depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    const c = this.s[this.i];
    if (c === "{") return this.object(path, depth);
    if (c === "[") return this.array(path, depth);
    if (c === '"') return this.string();
    if (c === "-" || (c >= "0" && c <= "9")) return this.number();
    if (this.s.startsWith("true", this.i)) return this.word("true", true);
    if (this.s.startsWith("false", this.i)) return this.word("false", false);
    if (this.s.startsWith("null", this.i)) return this.word("null", null);
    if (c === undefined) this.fail("unexpected end of file (a value is missing)");
    if (c === "'") this.fail("strings must use double quotes");
    this.fail(`unexpected ${describe(c)} (expected a value)`);
  }

  private object(path: string, depth: number): JsonValue {
    const out: { [key: string]: JsonValue } = {};
    this.i++; // {
    this.ws();
    if (this.s[this.i] === "}") {
      this.i++;
      return out;
    }
    for (;;) {
      if (this.s[this.i] !== '"') {
        if (this.s[this.i] === "}") this.fail("trailing comma before '}'");
        if (this.s[this.i] === "'") this.fail("keys must use double quotes");
        this.fail(`unexpected ${describe(this.s[this.i])} (expected a key in double quotes)`);
      }
      const at = this.i;
      const key = this.string();
      const keyPath = childPath(path, key);
      if (Object.prototype.hasOwnProperty.call(out, key)) this.duplicates.push(keyPath);
      this.positions.set(keyPath, this.position(at));
      this.ws();
      if (this.s[this.i] !== ":") this.fail(`unexpected ${describe(this.s[this.i])} (expected ':' after the key)`);
      this.i++;
      this.ws();
      const v = this.value(keyPath, depth + 1);
      // defineProperty: a key named "__proto__" stays an ordinary key.
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      this.ws();
      const c = this.s[this.i];
      if (c === ",") {
        this.i++;
        this.ws();
        continue;
      }
      if (c === "}") {
        this.i++;
        return out;
      }
      this.fail(c === undefined ? "unexpected end of file (an object is not closed)" : `unexpected ${describe(c)} (expected ',' or '}')`);
    }
  }

  private array(path: string, depth: number): JsonValue {
    const out: JsonValue[] = [];
    this.i++; // [
    this.ws();
    if (this.s[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      if (this.s[this.i] === "]") this.fail("trailing comma before ']'");
      const itemPath = childPath(path, out.length);
      this.positions.set(itemPath, this.position(this.i));
      out.push(this.value(itemPath, depth + 1));
      this.ws();
      const c = this.s[this.i];
      if (c === ",") {
        this.i++;
        this.ws();
        continue;
      }
      if (c === "]") {
        this.i++;
        return out;
      }
      this.fail(c === undefined ? "unexpected end of file (an array is not closed)" : `unexpected ${describe(c)} (expected ',' or ']')`);
    }
  }

  private string(): string {
    this.i++; // opening quote
    let out = "";
    let start = this.i;
    for (;;) {
      const c = this.s[this.i];
      if (c === undefined) this.fail("unexpected end of file (a string is not closed)");
      if (c === '"') {
        out += this.s.slice(start, this.i);
        this.i++;
        return out;
      }
      if (c < " ") this.fail(c === "\n" ? "line break inside a string (a string is not closed?)" : "control character inside a string");
      if (c === "\\") {
        out += this.s.slice(start, this.i);
        out += this.escape();
        start = this.i;
        continue;
      }
      this.i++;
    }
  }

  private escape(): string {
    const c = this.s[this.i + 1];
    const simple: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
    if (c !== undefined && simple[c] !== undefined) {
      this.i += 2;
      return simple[c];
    }
    if (c === "u") {
      const hex = this.s.slice(this.i + 2, this.i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape (expected four hex digits)");
      this.i += 6;
      return String.fromCharCode(parseInt(hex, 16));
    }
    this.fail(`invalid escape '\\${c ?? ""}' in a string`);
  }

  private number(): number {
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(this.s.slice(this.i, this.i + 400));
    if (!m) this.fail("invalid number");
    const next = this.s[this.i + m[0].length];
    if (next !== undefined && /[0-9.eE+\-a-zA-Z]/.test(next)) this.fail("invalid number");
    this.i += m[0].length;
    return Number(m[0]);
  }

  private word<T extends JsonValue>(w: string, v: T): T {
    const next = this.s[this.i + w.length];
    if (next !== undefined && /[A-Za-z0-9_$]/.test(next)) this.fail(`unexpected ${describe(this.s[this.i])} (expected a value)`);
    this.i += w.length;
    return v;
  }

  /** Skip whitespace; refuse comments with a message that says why. */
  private ws(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") {
        this.i++;
        continue;
      }
      if (c === "/" && (this.s[this.i + 1] === "/" || this.s[this.i + 1] === "*")) {
        this.fail("comments are not allowed: settings files are strict JSON (JSON with comments is not accepted)");
      }
      return;
    }
  }

  private position(index: number): JsonPosition {
    if (this.lineStarts === null) {
      this.lineStarts = [0];
      for (let k = 0; k < this.s.length; k++) if (this.s[k] === "\n") this.lineStarts.push(k + 1);
    }
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    // A byte order mark is invisible in editors: columns on line 1 do not count it.
    const bom = lo === 0 && this.s.charCodeAt(0) === 0xfeff ? 1 : 0;
    return { line: lo + 1, column: index - this.lineStarts[lo] + 1 - bom };
  }

  private fail(message: string): never {
    const p = this.position(Math.min(this.i, this.s.length));
    throw new JsonSyntaxError(message, p.line, p.column);
  }
}

function describe(c: string | undefined): string {
  if (c === undefined) return "end of file";
  if (c === "\n" || c === "\r") return "line break";
  return `character '${c}'`;
}
