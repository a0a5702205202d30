// What the REPL puts on the chain, handed to assembly (FrontEnd) so `deepcode --events` shows it:
// the person's answer to `permission.ask` (confirm.ts) and to `person.ask` (ask.ts), `ui.render`
// in place (above the prompt while the person types), and the session's totals for /status and
// the status line. The session (session.ts) is made after assembly; until it is there, what is
// rendered goes where assembly's warnings go, and no usage is counted (no session runs yet).

import type { EventOf, Result } from "../../contract/index.js";
import type { FrontEnd } from "../assemble-options.js";
import type { Style } from "../render/style.js";
import { registerConfirm } from "./confirm.js";
import { registerPersonAsk } from "./ask.js";
import type { TurnKeys } from "./keys.js";

/** What the running session answers for (session.ts's Repl). */
export interface ReplSide {
  /** A `ui.render` text line, shown in place. */
  render(item: { text: string; level?: "info" | "warn" | "error" }): void;
  /** A priced request of any session (the session keeps its own). */
  countUsage(e: EventOf<"model.usage">, result: Result<"model.usage"> | undefined): void;
}

export interface ReplFrontEndDeps {
  keys: TurnKeys;
  out: NodeJS.WritableStream;
  style: Style;
  /** The session, once it is made. */
  side(): ReplSide | undefined;
  /** Before the session: where assembly's warnings go. */
  early(text: string): void;
}

export function replFrontEnd(d: ReplFrontEndDeps): FrontEnd {
  return {
    name: "repl",
    register({ chain, sessionRules }) {
      registerConfirm({ chain, keys: d.keys, rules: sessionRules, out: d.out, style: d.style });
      registerPersonAsk({ chain, keys: d.keys, out: d.out, style: d.style });
      // What a mod says to the person (checkpoints dropped by the store's bound, a mention not
      // attached…), in place: replaces assembly's answer (stderr) on purpose.
      chain.replaceCore("ui.render", (e) => {
        if (e.item.kind !== "text") return;
        const side = d.side();
        if (side) side.render(e.item);
        else d.early(e.item.text);
      });
      // Every priced request of the current session (turns and compactions alike) counts in
      // /status and the status line, with the price the usage ledger records.
      chain.on("prepend", "repl-session-totals", "model.usage", null, async (e, next) => {
        const r = await next(e);
        d.side()?.countUsage(e, r);
        return r;
      });
    },
  };
}
