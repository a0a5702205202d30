// `deepcode rewind --session ID --turn N [--files|--conversation] [--force]`: the checkpoints
// mod's `/rewind` run from the shell. The session is resumed (so the conversation's core answer
// is there), the command runs with nobody to ask — a file changed on disk since is kept unless
// --force, and that exits 1 — and the session is closed again; `deepcode -r ID` goes on from it.

import { Engine } from "../../core/engine/engine.js";
import { assemble, type AssembleOptions } from "../assemble.js";
import { UsageError, type Parsed } from "../options.js";

export async function runRewind(values: Parsed["values"], options: AssembleOptions): Promise<number> {
  const id = typeof values.session === "string" ? values.session : "";
  const turn = typeof values.turn === "string" ? values.turn : "";
  if (!id) throw new UsageError("deepcode rewind needs --session ID (deepcode sessions lists them)");
  if (!/^\d+$/.test(turn)) throw new UsageError(`deepcode rewind needs --turn N, a whole number ≥ 0${turn ? `, not '${turn}'` : ""}`);
  if (values.files === true && values.conversation === true) throw new UsageError("deepcode rewind takes --files or --conversation, not both (without either it does both)");
  const what = values.files === true ? "files" : values.conversation === true ? "conversation" : "both";
  const app = await assemble({ ...options, interactive: false });
  const command = app.commands.get("rewind");
  if (!command) throw new Error("the checkpoints mod did not load, so there is nothing to rewind with");
  let engine: Engine;
  try {
    engine = await Engine.resume(app.engineOptions(), id);
  } catch (err) {
    process.stderr.write(`deepcode: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  app.engine = engine;
  let code = 0;
  try {
    await command.spec.run({
      args: `${turn} ${what}${values.force === true ? " --force" : ""}`,
      sessionId: id,
      signal: new AbortController().signal,
      interactive: false,
      print: (t) => void process.stdout.write(`${t}\n`),
      submit: () => Promise.reject(new Error("deepcode rewind runs no turn")),
    });
  } catch (err) {
    process.stderr.write(`deepcode: ${err instanceof Error ? err.message : String(err)}\n`);
    code = 1;
  } finally {
    await engine.close("exit");
  }
  return code;
}
