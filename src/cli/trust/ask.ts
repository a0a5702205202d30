// The REPL's trust question, asked once per project before anything of the project can run:
// before the first prompt, before settings hooks (SessionStart) or plugins load. Only when the
// project holds something that needs trust and the person has not answered for it as it is.

import { ConfigError } from "../../contract/errors.js";
import type { AssembleOptions } from "../assemble.js";
import { deepcodeHome } from "../home.js";
import type { Style } from "../render/style.js";
import { TurnKeys } from "../repl/keys.js";
import { defaultManagedPath, loadSettings } from "../settings/load.js";
import { describeItems, needsQuestion, rememberTrust, resolveTrust } from "./index.js";

export async function askTrust(o: AssembleOptions, style: Style, out: NodeJS.WritableStream = process.stdout): Promise<void> {
  if (o.trustProject) return;
  const home = o.home ?? deepcodeHome(o.env ?? process.env);
  let settings;
  try {
    settings = loadSettings({ root: o.root, home, flagFile: o.flagSettings, managedPath: o.managedPath ?? defaultManagedPath() });
  } catch (err) {
    if (err instanceof ConfigError) return; // the session's start reports the malformed file
    throw err;
  }
  const state = resolveTrust({ root: o.root, home, settings });
  if (!needsQuestion(state)) return;
  const lines = describeItems(state, o.root);
  out.write(`\n${style(["bold", "yellow"], state.how === "changed" ? "? This project changed since you last answered" : "? Do you trust this project?")} ${style("dim", state.root)}\n`);
  out.write(`${style("dim", "Its own files may always tighten rules. Trusting it also lets these take effect:")}\n`);
  // Every item, however many: a question that hides some of what it grants is no question.
  // Each line is inert (describeItems), so a hook command cannot redraw the question.
  for (const l of lines) out.write(`  ${l}\n`);
  // One key, like every other question: y trusts, n (or any other key) keeps it untrusted.
  const keys = new TurnKeys();
  keys.start(() => undefined);
  let k;
  try {
    k = await keys.ask({ show: () => out.write(`Trust it? ${style("bold", "[y]")} yes  ${style("bold", "[n]")} no, keep it untrusted  › `) });
  } finally {
    keys.stop();
  }
  if (k.kind !== "key") {
    out.write(`${style("dim", "no answer: untrusted for this session (asked again next time)")}\n`);
    return;
  }
  const yes = k.key.toLowerCase() === "y";
  rememberTrust(home, state, yes);
  out.write(yes ? `${style("green", "trusted")} — remembered until its settings or commands change\n` : `${style("dim", "kept untrusted: those are ignored (/trust or deepcode trust to change that)")}\n`);
}
