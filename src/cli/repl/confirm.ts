// The person's answer to `permission.ask`, in the REPL: the preview (the command, or the diff
// of an edit), then `y` this once, `a` this kind for the session (what it remembers is said
// when pressed), `n` or Esc no. Only those keys answer: a stray Enter answers nothing, and other
// typing (`/status` typed while the question is up) is kept for the next prompt (keys.ts). `a` adds a session allow rule, which goes through the same
// decision as every rule: it can turn a later ask into an allow, never beat a deny.
// Registered in the builtin tier, so policy and plugin hooks in outer tiers answer first.
// A subagent's question says which agent asks and for what task. Questions are asked one at a
// time (subagents running in parallel may ask at once): the others wait their turn.

import type { AskAnswer, EventOf } from "../../contract/index.js";
import type { Chain } from "../../core/chain.js";
import type { SessionRules } from "../permissions/index.js";
import type { Style } from "../render/style.js";
import { ESC, type TurnKeys } from "./keys.js";
import { CONTROL, control } from "../render/terminal.js";
import { fitBlock, fitInline, INDENT, lineRows, MARKER, roomOf, rowsOf, type Room } from "../render/fit-question.js";
import { textWidth } from "../render/wrap.js";

export interface ConfirmDeps {
  chain: Chain;
  keys: TurnKeys;
  rules: SessionRules;
  out: NodeJS.WritableStream;
  style: Style;
}

const MAX_PREVIEW_LINES = 40;

export function registerConfirm(d: ConfirmDeps): () => void {
  let queue: Promise<unknown> = Promise.resolve();
  return d.chain.on(
    "builtin",
    "repl",
    "permission.ask",
    null,
    (e) => {
      const turn = queue.then(() => ask(d, e));
      queue = turn.catch(() => undefined); // a failed question must not block the next one
      return turn;
    },
    { timeoutMs: Infinity },
  );
}

async function ask(d: ConfirmDeps, e: EventOf<"permission.ask">): Promise<AskAnswer> {
  const s = d.style;
  // Every part is someone else's text (the model's command, a rule, an agent's task): inert, so
  // the question shows exactly what will run (the terminal's gate is the second line). It is
  // fitted to the screen as it is now (render/fit-question.ts): the header, everything that will
  // run and the answer line show at once, however long or blank-padded the command is.
  const q = fitPermission(e, roomOf(d.out));
  const marks = (l: string): string => l.replace(MARKER, (m) => s("yellow", m));
  const who = q.who ? `${s("magenta", q.who)} ` : "";
  control(d.out, CONTROL.clearLine);
  d.out.write(`\n${who}${s(["bold", "yellow"], `? ${q.tool} wants to run`)} ${s("dim", `(${q.reason})`)}\n`);
  for (const l of q.body) d.out.write(`${marks(paint(l, s, q.isDiff))}\n`);
  const k = await d.keys.ask({ accepts: answerKey, show: () => d.out.write(`${s("bold", "[y]")} yes, once   ${s("bold", "[a]")} always this session: ${marks(s("cyan", q.remember))}   ${s("bold", "[n]")} no  › `) });
  if (k.kind === "key" && k.key.toLowerCase() === "y") {
    d.out.write(`${s("green", "yes")}\n`);
    return { decision: "allow", by: "user" };
  }
  if (k.kind === "key" && k.key.toLowerCase() === "a") {
    try {
      d.rules.add(e.remember);
    } catch (err) {
      // A rule text the parser refuses cannot be remembered; this one call is still allowed.
      d.out.write(`${s("yellow", `(could not remember ${q.remember}: ${fitInline((err as Error).message, (x) => x.length <= 200)})`)} `);
    }
    d.out.write(`${s("green", "yes")} — remembered for this session: ${s("cyan", q.remember)} ${s("dim", "(/permissions forget clears it)")}\n`);
    return { decision: "allow", remember: true, by: "user" };
  }
  d.out.write(`${s("red", k.kind === "interrupt" ? "no (interrupted)" : "no")}\n`);
  return { decision: "deny", reason: k.kind === "interrupt" ? "the user interrupted" : "the user said no", by: "user" };
}

/** The keys that answer a permission question: a deliberate choice, never a stray key. */
const answerKey = (k: string): boolean => /^[yanYAN]$/.test(k) || k === ESC;

interface FittedPermission {
  who: string;
  tool: string;
  reason: string;
  body: string[];
  remember: string;
  isDiff: boolean;
}

/** The question's parts, plain and inert, fitted to `room`: the header (agent, tool, reason) and
 *  the answer line (with the rule `a` remembers) take at most lineRows rows each, their long
 *  texts cut in the middle; the preview takes the rows left (one more for the blank line above
 *  the header). A command is fitted whole (fitBlock: every part's start and end); a diff shows
 *  its first lines, saying how many more there are. */
export function fitPermission(e: Pick<EventOf<"permission.ask">, "tool" | "reason" | "preview" | "remember" | "agent">, room: Room): FittedPermission {
  const most = lineRows(room.rows);
  const tool = fitInline(e.tool, (x) => textWidth(x) <= 40);
  const agent = e.agent ? fitInline(e.agent.name, (x) => textWidth(x) <= 30) : "";
  const who = e.agent ? `[subagent ${agent}: ${fitInline(e.agent.task, (x) => rowsOf(`[subagent ${agent}: ${x}]`, room.columns) <= 1)}]` : "";
  const header = (reason: string): string => `${who ? `${who} ` : ""}? ${tool} wants to run (${reason})`;
  const reason = fitInline(e.reason, (x) => rowsOf(header(x), room.columns) <= most);
  const answer = (rule: string): string => `[y] yes, once   [a] always this session: ${rule}   [n] no  › `;
  const remember = fitInline(e.remember, (x) => rowsOf(answer(x), room.columns) <= most);
  const rows = room.rows - 1 - rowsOf(header(reason), room.columns) - rowsOf(answer(remember), room.columns);
  const lines = e.preview.replace(/\r\n/g, "\n").split("\n");
  const isDiff = lines.some((l) => l.startsWith("@@")) && lines.some((l) => l.startsWith("+++") || l.startsWith("---"));
  const body = isDiff ? diffRows(lines, Math.max(1, rows), room.columns) : fitBlock(e.preview, rows, room.columns);
  return { who, tool, reason, body, remember, isDiff };
}

/** A diff's first lines in `rows` rows (and at most MAX_PREVIEW_LINES lines), each cut in the
 *  middle to a few rows; the last row says how many lines are not shown. */
function diffRows(lines: string[], rows: number, columns: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const more = i < lines.length - 1 ? 1 : 0;
    const shown = fitInline(line, (x) => rowsOf(`${INDENT}${x}`, columns) <= Math.min(3, Math.max(1, rows - used - more)));
    const need = rowsOf(`${INDENT}${shown}`, columns);
    if (i >= MAX_PREVIEW_LINES || (i > 0 && used + need + more > rows)) {
      out.push(`${INDENT}… ${lines.length - i} more lines`);
      break;
    }
    out.push(`${INDENT}${shown}`);
    used += need;
  }
  return out;
}

/** A preview row coloured: a diff's added, removed and hunk lines. */
function paint(row: string, s: Style, isDiff: boolean): string {
  if (!isDiff) return row;
  const l = row.slice(INDENT.length);
  if (l.startsWith("… ")) return `${INDENT}${s("dim", l)}`;
  if (l.startsWith("+") && !l.startsWith("+++")) return `${INDENT}${s("green", l)}`;
  if (l.startsWith("-") && !l.startsWith("---")) return `${INDENT}${s("red", l)}`;
  if (l.startsWith("@@")) return `${INDENT}${s("cyan", l)}`;
  return row;
}
