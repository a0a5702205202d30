// `deepcode rewind --session ID --turn N [--files|--conversation] [--force]`: the mod's `/rewind`
// run from the shell. The session is resumed (SubcommandContext.resumeSession: its conversation's
// core answer is there), the command runs with nobody to ask — a file changed on disk since is
// kept unless --force, and that exits 1 — and the session is closed again; `deepcode -r ID`
// goes on from it. Exit codes: 0 done, 1 not (or not all) rewound, 2 a usage error.

import { parseArgs } from "node:util";
import { UsageError, type CommandContext, type SubcommandContext, type SubcommandSpec } from "../../src/contract/index.js";

const OPTIONS = {
  session: { type: "string" },
  turn: { type: "string" },
  files: { type: "boolean" },
  conversation: { type: "boolean" },
  force: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const HELP = [
  "Usage: deepcode rewind [options]",
  "",
  "go back to the end of a turn of a session: its files, its conversation, or both (the default)",
  "",
  "Options:",
  "  --session ID    the session (deepcode sessions lists them)",
  "  --turn N        the turn whose end to go back to (0: before the first)",
  "  --files         only put back the files later turns changed",
  "  --conversation  only cut the conversation after that turn (it stays cached)",
  "  --force         overwrite files changed on disk since (otherwise they are kept, exit 1)",
  "  -h, --help      show this help",
  "",
].join("\n");

/** The subcommand, running whichever `/rewind` the mod registered (file checkpoints on or off). */
export function rewindSubcommand(rewind: (ctx: CommandContext) => Promise<void>): SubcommandSpec {
  return {
    name: "rewind",
    description: "go back to the end of a turn of a session: its files, its conversation, or both (the default)",
    usage: "--session ID --turn N [--files|--conversation] [--force]",
    run: (args, ctx) => run(rewind, args, ctx),
  };
}

async function run(rewind: (ctx: CommandContext) => Promise<void>, args: readonly string[], ctx: SubcommandContext): Promise<number> {
  const values = parse(args);
  if (values.help) {
    ctx.out(HELP);
    return 0;
  }
  const id = values.session ?? "";
  const turn = values.turn ?? "";
  if (!id) throw usage("deepcode rewind needs --session ID (deepcode sessions lists them)");
  if (!/^\d+$/.test(turn)) throw usage(`deepcode rewind needs --turn N, a whole number ≥ 0${turn ? `, not '${turn}'` : ""}`);
  if (values.files === true && values.conversation === true) throw usage("deepcode rewind takes --files or --conversation, not both (without either it does both)");
  const what = values.files === true ? "files" : values.conversation === true ? "conversation" : "both";
  let session;
  try {
    session = await ctx.resumeSession(id);
  } catch (err) {
    ctx.err(`deepcode: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  try {
    await rewind({
      args: `${turn} ${what}${values.force === true ? " --force" : ""}`,
      sessionId: id,
      signal: ctx.signal,
      interactive: false,
      print: (t) => ctx.out(`${t}\n`),
      submit: () => Promise.reject(new Error("deepcode rewind runs no turn")),
    });
    return 0;
  } catch (err) {
    ctx.err(`deepcode: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await session.close();
  }
}

function parse(args: readonly string[]): { session?: string; turn?: string; files?: boolean; conversation?: boolean; force?: boolean; help?: boolean } {
  try {
    return parseArgs({ args: [...args], options: OPTIONS, allowPositionals: false, strict: true }).values;
  } catch (err) {
    const e = err as Error & { code?: string };
    const option = /'(-[^']*)'/.exec(e.message)?.[1];
    if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) throw usage(`unknown option ${option.split("=")[0]} (deepcode rewind --help lists the options)`);
    if (e.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      const word = /'([^']*)'/.exec(e.message)?.[1] ?? "";
      throw usage(`deepcode rewind takes no argument '${word}' (deepcode rewind --help lists what it takes)`);
    }
    throw usage(`deepcode rewind: ${e.message}`);
  }
}

function usage(message: string): UsageError {
  return new UsageError(message);
}
