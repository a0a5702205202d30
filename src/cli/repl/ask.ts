// The person's answer to `person.ask` in the REPL (beside confirm.ts, which answers tool calls):
// the title and detail lines, then
//   - a question without fields: `y` yes, `n` no (both remembered when the question is
//     rememberable); Ctrl-C or any other key is no, not remembered;
//   - a form: `y` to fill it in (each field shows its type and default; Enter keeps the
//     default), `n` declines, Ctrl-C cancels;
//   - a question with `choices`: the key of one of them (`[g] go [e] edit [d] drop`); any
//     other key is no.
// Keys are read as during a turn (TurnKeys); a question that arrives while nobody's keys are
// being read (between turns) is answered no, with a reason. Questions are asked one at a time.
// Registered in the builtin tier, so policy and plugin hooks in outer tiers answer first.

import type { EventOf, JsonValue, PersonAnswer, PersonChoice, PersonField } from "../../contract/index.js";
import type { Chain } from "../../core/chain.js";
import type { Style } from "../render/style.js";
import type { Key, TurnKeys } from "./keys.js";
import { inert } from "../render/inert.js";
import { CONTROL, control } from "../render/terminal.js";

export interface AskDeps {
  chain: Chain;
  keys: TurnKeys;
  out: NodeJS.WritableStream;
  style: Style;
}

export function registerPersonAsk(d: AskDeps): () => void {
  let queue: Promise<unknown> = Promise.resolve();
  return d.chain.on(
    "builtin",
    "repl",
    "person.ask",
    null,
    (e) => {
      const run = queue.then(() => ask(d, e));
      queue = run.catch(() => undefined); // a failed question must not block the next
      return run;
    },
    { timeoutMs: Infinity },
  );
}

async function ask(d: AskDeps, e: EventOf<"person.ask">): Promise<PersonAnswer> {
  const s = d.style;
  if (!d.keys.active) return { decision: "deny", reason: "it was asked while no turn or command was running, so nobody was asked", by: "repl" };
  // The title, the detail, the choices and the fields are someone else's text (an MCP server's
  // elicitation, a plugin's question): inert, each line one line.
  control(d.out, CONTROL.clearLine);
  d.out.write(`\n${s(["bold", "yellow"], `? ${inert(e.title)}`)}\n`);
  for (const d0 of e.detail) for (const l of d0.split("\n")) if (l) d.out.write(`  ${inert(l)}\n`);
  if (e.choices?.length) return choose(d, e.choices);
  const fields = e.fields ?? [];
  const remembered = e.rememberable ? s("dim", "  (your answer is remembered)") : "";
  d.out.write(`${s("bold", "[y]")} ${fields.length ? "answer" : "yes"}   ${s("bold", "[n]")} ${fields.length ? "decline" : "no"}${remembered}  › `);
  const k = await d.keys.ask();
  if (k.kind === "interrupt") {
    d.out.write(`${s("red", "cancelled")}\n`);
    return { decision: "deny", reason: "cancel", by: "user" };
  }
  const key = k.kind === "key" ? k.key.toLowerCase() : "";
  if (key !== "y") {
    d.out.write(`${s("red", "no")}\n`);
    return { decision: "deny", reason: "the user said no", by: "user", remember: e.rememberable === true && key === "n" };
  }
  d.out.write(`${s("green", "yes")}\n`);
  if (fields.length === 0) return { decision: "allow", by: "user", remember: e.rememberable === true };
  const values: Record<string, JsonValue> = {};
  for (const f of fields) {
    const v = await field(d, f);
    if (v === null) {
      d.out.write(`${s("red", "cancelled")}\n`);
      return { decision: "deny", reason: "cancel", by: "user" };
    }
    if (v !== undefined) values[f.name] = v;
  }
  return { decision: "allow", values, by: "user" };
}

/** A question answered with one of a few keys: the key pressed, or no for any other key. */
async function choose(d: AskDeps, choices: readonly PersonChoice[]): Promise<PersonAnswer> {
  const s = d.style;
  d.out.write(`${choices.map((c) => `${s("bold", `[${inert(c.key)}]`)} ${inert(c.label)}`).join("   ")}  › `);
  const k = await d.keys.ask();
  const key = k.kind === "key" ? k.key.toLowerCase() : "";
  const c = choices.find((x) => x.key === key);
  if (!c) {
    d.out.write(`${s("red", k.kind === "interrupt" ? "cancelled" : "no")}\n`);
    return { decision: "deny", reason: k.kind === "interrupt" ? "cancel" : "the user chose none of the answers", by: "user" };
  }
  d.out.write(`${s("green", inert(c.label))}\n`);
  return { decision: "allow", choice: c.key, by: "user" };
}

/** One field: its value, undefined to leave it to its default, null when cancelled. */
async function field(d: AskDeps, f: PersonField): Promise<JsonValue | undefined | null> {
  const s = d.style;
  const label = inert(f.title ?? f.name);
  const choices = (f.options ?? []).map((o, i) => `${i + 1}) ${inert(f.optionLabels?.[i] ?? o)}`).join("  ");
  const kind = f.type === "enum" ? `${f.multiple ? "one or more, comma-separated: " : ""}${choices}` : f.type === "boolean" ? "y/n" : f.type;
  const def = f.default !== undefined ? ` [${inert(typeof f.default === "string" ? f.default : JSON.stringify(f.default))}]` : "";
  for (;;) {
    d.out.write(`  ${s("bold", label)}${f.required ? "*" : ""} ${s("dim", `(${kind})`)}${f.description ? s("dim", ` ${inert(f.description)}`) : ""}${def}: `);
    const line = await readLine(d);
    if (line === null) return null;
    const text = line.trim();
    if (text === "") {
      if (f.default !== undefined || !f.required) return undefined;
      d.out.write(`  ${s("yellow", `${label} is required`)}\n`);
      continue;
    }
    const v = parse(f, text);
    if (v !== undefined) return v;
    d.out.write(`  ${s("yellow", `not ${f.type === "enum" ? "one of the choices" : `a ${f.type}`}: ${inert(text)}`)}\n`);
  }
}

function parse(f: PersonField, text: string): JsonValue | undefined {
  switch (f.type) {
    case "boolean":
      return /^(y|yes|true|1)$/i.test(text) ? true : /^(n|no|false|0)$/i.test(text) ? false : undefined;
    case "number":
    case "integer": {
      const n = Number(text);
      return Number.isFinite(n) && (f.type === "number" || Number.isInteger(n)) ? n : undefined;
    }
    case "enum": {
      const opts = f.options ?? [];
      const one = (t: string): string | undefined => {
        const i = Number(t);
        if (Number.isInteger(i) && i >= 1 && i <= opts.length) return opts[i - 1];
        return opts.includes(t) ? t : undefined;
      };
      if (!f.multiple) return one(text);
      const picked = text.split(",").map((x) => one(x.trim()));
      return picked.every((x) => x !== undefined) ? (picked as string[]) : undefined;
    }
    default:
      return text;
  }
}

/** A line typed in raw mode, echoed, with backspace; Enter ends it, Ctrl-C gives null. */
async function readLine(d: AskDeps): Promise<string | null> {
  let line = "";
  for (let first = true; ; first = false) {
    const k: Key = await d.keys.lineKey(first);
    if (k.kind === "interrupt") return null;
    if (k.kind === "paste") {
      line += k.text.replace(/[\r\n]+/g, " ");
      d.out.write(inert(k.text.replace(/[\r\n]+/g, " ")));
      continue;
    }
    if (k.kind !== "key") continue;
    for (const ch of k.key) {
      if (ch === "\r" || ch === "\n") {
        d.out.write("\n");
        return line;
      }
      if (ch === "\u007f" || ch === "\b") {
        if (line.length > 0) {
          line = line.slice(0, -1);
          control(d.out, CONTROL.backspace);
        }
        continue;
      }
      if (ch < " ") continue; // other control keys mean nothing here
      line += ch;
      d.out.write(ch);
    }
  }
}
