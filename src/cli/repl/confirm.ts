// The person's answer to `permission.ask`, in the REPL: the preview (the command, or the diff
// of an edit), then `y` this once, `a` this kind for the session (what it remembers is said
// when pressed), anything else no. `a` adds a session allow rule, which goes through the same
// decision as every rule: it can turn a later ask into an allow, never beat a deny.
// Registered in the builtin tier, so policy and plugin hooks in outer tiers answer first.
// A subagent's question says which agent asks and for what task. Questions are asked one at a
// time (subagents running in parallel may ask at once): the others wait their turn.

import type { AskAnswer, EventOf } from "../../contract/index.js";
import type { Chain } from "../../core/chain.js";
import type { SessionRules } from "../permissions/index.js";
import type { Style } from "../render/style.js";
import type { TurnKeys } from "./keys.js";
import { inert, inertLines } from "../../lib/inert.js";
import { CONTROL, control } from "../render/terminal.js";

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
  // the question shows exactly what will run (the terminal's gate is the second line).
  const who = e.agent ? `${s("magenta", `[subagent ${inert(e.agent.name)}: ${inert(e.agent.task)}]`)} ` : "";
  control(d.out, CONTROL.clearLine);
  d.out.write(`\n${who}${s(["bold", "yellow"], `? ${inert(e.tool)} wants to run`)} ${s("dim", `(${inert(e.reason)})`)}\n`);
  d.out.write(`${preview(e.preview, s)}\n`);
  const k = await d.keys.ask({ show: () => d.out.write(`${s("bold", "[y]")} yes, once   ${s("bold", "[a]")} always this session: ${s("cyan", inert(e.remember))}   ${s("bold", "[n]")} no  › `) });
  if (k.kind === "key" && k.key.toLowerCase() === "y") {
    d.out.write(`${s("green", "yes")}\n`);
    return { decision: "allow", by: "user" };
  }
  if (k.kind === "key" && k.key.toLowerCase() === "a") {
    try {
      d.rules.add(e.remember);
    } catch (err) {
      // A rule text the parser refuses cannot be remembered; this one call is still allowed.
      d.out.write(`${s("yellow", `(could not remember ${inert(e.remember)}: ${inert((err as Error).message)})`)} `);
    }
    d.out.write(`${s("green", "yes")} — remembered for this session: ${s("cyan", inert(e.remember))} ${s("dim", "(/permissions forget clears it)")}\n`);
    return { decision: "allow", remember: true, by: "user" };
  }
  d.out.write(`${s("red", k.kind === "interrupt" ? "no (interrupted)" : "no")}\n`);
  return { decision: "deny", reason: k.kind === "interrupt" ? "the user interrupted" : "the user said no", by: "user" };
}

/** The preview in full when it is what will run (a command: no line of it may hide below a
 *  cut); a diff is cut after MAX_PREVIEW_LINES lines, saying how many more there are. */
function preview(text: string, s: Style): string {
  const lines = inertLines(text.replace(/\r\n/g, "\n")).split("\n");
  const isDiff = lines.some((l) => l.startsWith("@@")) && lines.some((l) => l.startsWith("+++") || l.startsWith("---"));
  const cut = isDiff ? MAX_PREVIEW_LINES : Infinity;
  const shown = lines.slice(0, cut).map((l) => {
    if (l.startsWith("+") && !l.startsWith("+++")) return s("green", l);
    if (l.startsWith("-") && !l.startsWith("---")) return s("red", l);
    if (l.startsWith("@@")) return s("cyan", l);
    return l;
  });
  if (lines.length > cut) shown.push(s("dim", `… ${lines.length - MAX_PREVIEW_LINES} more lines`));
  return shown.map((l) => `  ${l}`).join("\n");
}
