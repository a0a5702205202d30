// The person's answer to `person.ask` in the REPL (beside confirm.ts, which answers tool calls):
// the title and detail lines, then
//   - a question without fields: `y` yes, `n` no (both remembered when the question is
//     rememberable); Ctrl-C or any other key is no, not remembered;
//   - a form: answered in one step — its fields are asked at once (each shows its type and
//     default; Enter takes the default), Esc on an empty field declines, Ctrl-C cancels; an
//     integer or number outside the field's bounds is asked again;
//   - a question with `choices`: the key of one of them (`[g] go [e] edit [d] drop`); any
//     other key is no.
// Keys are read as during a turn (TurnKeys); a question that arrives while nobody's keys are
// being read (between turns) is answered no, with a reason. Questions are asked one at a time.
// Registered in the builtin tier, so policy and plugin hooks in outer tiers answer first.

import type { EventOf, JsonValue, PersonAnswer, PersonChoice, PersonField } from "../../contract/index.js";
import type { Chain } from "../../core/chain.js";
import type { Style } from "../render/style.js";
import { ESC, type Key, type TurnKeys } from "./keys.js";
import { inert } from "../../lib/inert.js";
import { CONTROL, control } from "../render/terminal.js";
import { fitBlock, fitInline, lineRows, MARKER, roomOf, rowsOf, type Room } from "../render/fit-question.js";
import { textWidth } from "../render/wrap.js";

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
  // elicitation, a plugin's question, the command an MCP server runs): inert, and fitted to the
  // screen as it is now (render/fit-question.ts), so the title, every detail line's start and
  // end, and the answer line (or the form's first field) show at once.
  const room = roomOf(d.out);
  const most = lineRows(room.rows);
  const title = fitInline(e.title, (x) => rowsOf(`? ${x}`, room.columns) <= most);
  const detail = e.detail.flatMap((x) => x.split(/\r?\n/)).filter((l) => l);
  const fields = e.fields ?? [];
  const remembered = e.rememberable ? "  (your answer is remembered)" : "";
  const choices = e.choices?.length ? fitChoices(e.choices, room) : [];
  const answerRows = choices.length
    ? rowsOf(choicesLine(choices, (_k, t) => t), room.columns)
    : fields.length > 0
      ? rowsOf(FORM_HINT, room.columns) + rowsOf(fieldPrompt(fields[0], room).plain, room.columns)
      : rowsOf(`[y] yes   [n] no${remembered}  › `, room.columns);
  const rows = room.rows - 1 - rowsOf(`? ${title}`, room.columns) - answerRows;
  control(d.out, CONTROL.clearLine);
  d.out.write(`\n${s(["bold", "yellow"], `? ${title}`)}\n`);
  if (detail.length > 0) for (const l of fitBlock(detail.join("\n"), rows, room.columns)) d.out.write(`${l.replace(MARKER, (m) => s("yellow", m))}\n`);
  if (choices.length) return choose(d, e.choices ?? [], choices);
  if (fields.length > 0) return form(d, fields, room);
  const k = await d.keys.ask({ show: () => d.out.write(`${s("bold", "[y]")} yes   ${s("bold", "[n]")} no${remembered ? s("dim", remembered) : ""}  › `) });
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
  return { decision: "allow", by: "user", remember: e.rememberable === true };
}

const FORM_HINT = "Enter takes the default shown in [ ] · Esc declines · Ctrl-C cancels";

/** The choices with their keys and labels inert, the labels cut in the middle (alike) until the
 *  answer line takes at most lineRows rows. */
function fitChoices(choices: readonly PersonChoice[], room: Room): PersonChoice[] {
  const most = lineRows(room.rows);
  const keyed = choices.map((c) => ({ ...c, key: fitInline(c.key, (x) => textWidth(x) <= 8) }));
  const fitted = (width: number): PersonChoice[] => keyed.map((c) => ({ ...c, label: fitInline(c.label, (x) => textWidth(x) <= width) }));
  let width = Math.max(...choices.map((c) => textWidth(c.label)));
  while (width > 1 && rowsOf(choicesLine(fitted(width), (_k, t) => t), room.columns) > most) width = Math.floor(width * 0.8);
  return fitted(width);
}

/** The answer line of a question with choices; `st` styles the keys (identity for plain). */
function choicesLine(choices: readonly PersonChoice[], st: (k: "bold", t: string) => string): string {
  return `${choices.map((c) => `${st("bold", `[${c.key}]`)} ${c.label}`).join("   ")}  › `;
}

/** A form in one step: the answer is the input. Esc on an empty field declines. */
async function form(d: AskDeps, fields: readonly PersonField[], room: Room): Promise<PersonAnswer> {
  const s = d.style;
  d.out.write(`${s("dim", FORM_HINT)}\n`);
  const values: Record<string, JsonValue> = {};
  for (const [i, f] of fields.entries()) {
    const v = await field(d, f, i === 0, room);
    if (v === null || v === DECLINED) {
      d.out.write(`${s("red", v === null ? "cancelled" : "declined")}\n`);
      return v === null ? { decision: "deny", reason: "cancel", by: "user" } : { decision: "deny", reason: "the user declined", by: "user" };
    }
    if (v !== undefined) values[f.name] = v;
    else if (f.default !== undefined) values[f.name] = f.default;
  }
  return { decision: "allow", values, by: "user" };
}

const DECLINED = Symbol("declined");

/** A question answered with one of a few keys: the key pressed, or no for any other key.
 *  `shown` are the choices as fitted (fitChoices: inert, labels cut to the screen), in order. */
async function choose(d: AskDeps, choices: readonly PersonChoice[], shown: readonly PersonChoice[]): Promise<PersonAnswer> {
  const s = d.style;
  const k = await d.keys.ask({ show: () => d.out.write(choicesLine(shown, (f, t) => s(f, t))) });
  const key = k.kind === "key" ? k.key.toLowerCase() : "";
  const i = choices.findIndex((x) => x.key === key);
  const c = choices[i];
  if (!c) {
    d.out.write(`${s("red", k.kind === "interrupt" ? "cancelled" : "no")}\n`);
    return { decision: "deny", reason: k.kind === "interrupt" ? "cancel" : "the user chose none of the answers", by: "user" };
  }
  d.out.write(`${s("green", shown[i].label)}\n`);
  return { decision: "allow", choice: c.key, by: "user" };
}

/** One field: its value, undefined to leave it to its default, null when cancelled, DECLINED
 *  when Esc was pressed on it empty. `first`: the form's first field, shown after the grace
 *  period (keys sent before it appeared are not its answer). */
async function field(d: AskDeps, f: PersonField, first: boolean, room: Room): Promise<JsonValue | undefined | null | typeof DECLINED> {
  const s = d.style;
  const { label, styled: promptText } = fieldPrompt(f, room, s);
  for (let again = false; ; again = true) {
    const show = (): void => void d.out.write(promptText);
    const armed = first && !again; // the form's first look: shown after the grace period
    if (!armed) show();
    const line = await readLine(d, armed ? show : undefined);
    if (line === null || line === DECLINED) return line;
    const text = line.trim();
    if (text === "") {
      if (f.default !== undefined || !f.required) return undefined;
      d.out.write(`  ${s("yellow", `${label} is required (Esc declines)`)}\n`);
      continue;
    }
    const v = parse(f, text);
    if (v !== undefined && inRange(f, v)) return v;
    d.out.write(`  ${s("yellow", v === undefined ? `not ${f.type === "enum" ? "one of the choices" : `a ${f.type}`}: ${inert(text)}` : `${inert(text)} is outside ${rangeText(f).replace(/^, /, "")}`)}\n`);
  }
}

/** A field's prompt, its parts inert and cut in the middle (the choices first, then the
 *  description, then the default) until it takes at most lineRows rows: plain (to count rows)
 *  and `styled`. */
function fieldPrompt(f: PersonField, room: Room, s: Style = PLAIN): { label: string; plain: string; styled: string } {
  const most = lineRows(room.rows);
  const label = fitInline(f.title ?? f.name, (x) => textWidth(x) <= 40);
  const choices = (f.options ?? []).map((o, i) => `${i + 1}) ${f.optionLabels?.[i] ?? o}`).join("  ");
  const bounds = f.type === "integer" || f.type === "number" ? rangeText(f) : "";
  const kindOf = (c: string): string => (f.type === "enum" ? `${f.multiple ? "one or more, comma-separated: " : ""}${c}` : f.type === "boolean" ? "y/n" : f.type);
  const build = (kind: string, desc: string, def: string, st: Style): string =>
    `  ${st("bold", label)}${f.required ? "*" : ""} ${st("dim", `(${kind}${bounds})`)}${desc ? st("dim", ` ${desc}`) : ""}${f.default !== undefined ? ` [${def}]` : ""}: `;
  const fits = (kind: string, desc: string, def: string): boolean => rowsOf(build(kind, desc, def, PLAIN), room.columns) <= most;
  const whole = f.default !== undefined ? fitInline(defaultText(f), () => true) : "";
  const kind = fitInline(kindOf(choices), (x) => fits(x, "", whole));
  const desc = f.description ? fitInline(f.description, (x) => fits(kind, x, whole)) : "";
  const def = f.default !== undefined ? fitInline(defaultText(f), (x) => fits(kind, desc, x)) : "";
  return { label, plain: build(kind, desc, def, PLAIN), styled: build(kind, desc, def, s) };
}

const PLAIN: Style = Object.assign((_f: unknown, t: string) => t, { enabled: false });

function defaultText(f: PersonField): string {
  if (f.type === "enum" && typeof f.default === "string") {
    const i = (f.options ?? []).indexOf(f.default);
    if (i >= 0) return `${i + 1}) ${f.optionLabels?.[i] ?? f.default}`;
  }
  return typeof f.default === "string" ? f.default : JSON.stringify(f.default);
}

function rangeText(f: PersonField): string {
  if (f.minimum !== undefined && f.maximum !== undefined) return `, ${f.minimum}–${f.maximum}`;
  if (f.minimum !== undefined) return `, at least ${f.minimum}`;
  if (f.maximum !== undefined) return `, at most ${f.maximum}`;
  return "";
}

function inRange(f: PersonField, v: JsonValue): boolean {
  if (typeof v !== "number") return true;
  return (f.minimum === undefined || v >= f.minimum) && (f.maximum === undefined || v <= f.maximum);
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

/** A line typed in raw mode, echoed, with backspace; Enter ends it, Ctrl-C gives null, Esc on
 *  an empty line DECLINED. `show` writes the field's prompt when keys start to count. */
async function readLine(d: AskDeps, show?: () => void): Promise<string | null | typeof DECLINED> {
  let line = "";
  for (let first = true; ; first = false) {
    const k: Key = first && show ? await d.keys.lineKey(true, show) : await d.keys.lineKey(first, undefined, false);
    if (k.kind === "interrupt") return null;
    if (k.kind === "paste") {
      line += k.text.replace(/[\r\n]+/g, " ");
      d.out.write(inert(k.text.replace(/[\r\n]+/g, " ")));
      continue;
    }
    if (k.kind !== "key") continue;
    if (k.key === ESC && line === "") {
      d.out.write("\n");
      return DECLINED;
    }
    if (k.key.startsWith(ESC)) continue; // arrows and other sequences mean nothing here
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
