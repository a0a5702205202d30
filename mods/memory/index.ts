// Built-in mod: memory — lasting instructions the person (or the model, with the person's
// approval) adds to an instructions file.
//
//   `# text` at the REPL prompt, `/memory add text`   the person picks the file (project
//                                                      AGENTS.md, AGENTS.local.md, or their own
//                                                      ~/.deepcode/AGENTS.md) and a line is added
//   `/memory`                                          pick a file and edit it in $EDITOR
//   the Remember tool                                  the model proposes a line for AGENTS.md or
//                                                      AGENTS.local.md; it is a write like any
//                                                      other: it asks, and the fence sees it
//
// Memory applies at once without breaking the cached prefix: the instructions mod reads these
// files, so at the next turn the engine finds the section changed and sends the added lines as
// a tail note (src/core/engine/tail.ts); a new session has them in its prefix. The model's tool
// writes only inside the project: the person's own file is in deepcode's home, which tools
// never write. Settings `pluginConfig.memory.tool: false` leaves the Remember tool out.

import { spawnSync } from "node:child_process";
import { closeSync, constants, existsSync, fstatSync, ftruncateSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import type { CommandContext, Plugin, PluginApi, ToolContext } from "../../src/contract/index.js";
import { ignoreLocalFile, TARGETS, targetFile, targetLabel, withMemory, type Target } from "./files.js";

const plugin: Plugin = {
  id: "memory",
  description: "memory: # lines, /memory, and the Remember tool write to the instructions files",
  register(api) {
    api.command({
      name: "memory",
      args: "[add <text>]",
      description: "add a line to an instructions file (`# text` does the same), or edit them in $EDITOR",
      complete: (p) => ["add"].filter((x) => x.startsWith(p)),
      run: (ctx) => runMemory(api, ctx),
    });
    if (api.config.tool === false) return;
    api.tool({
      name: "Remember",
      description: "Save a lasting instruction or fact about this project (a convention, a command, a preference the user stated) as one line in its AGENTS.md, or in AGENTS.local.md for the user's private notes. The user approves each one; it applies from the next turn.",
      inputSchema: {
        type: "object",
        properties: {
          memory: { type: "string", description: "One short line, e.g. 'Use tabs for indentation.'" },
          file: { type: "string", enum: ["AGENTS.md", "AGENTS.local.md"] },
        },
        required: ["memory"],
        additionalProperties: false,
      },
      readOnly: false,
      // On demand (ToolSpec.onDemand): one line in the prefix instead of the whole definition; a
      // session that never saves a note pays ~30 tokens, not 137 (issue 41).
      onDemand: '{memory, file?}: save an instruction the user gave as a line of AGENTS.md ("AGENTS.local.md": not shared); the user approves',
      preview: async (input) => `${relative(api.root, fileFor(api, input.file))}\n+ ${withMemory("", String(input.memory ?? "")).trim()}`,
      run: async (input, ctx) => remember(api, ctx, String(input.memory ?? ""), input.file),
    });
  },
};

export default plugin;

function fileFor(api: PluginApi, file: unknown): string {
  return targetFile(file === "AGENTS.local.md" ? "local" : "project", api.root, api.home);
}

async function remember(api: PluginApi, ctx: ToolContext, memory: string, file: unknown): Promise<{ content: string; isError?: boolean; summary: string }> {
  if (!memory.trim() || memory.includes("\n")) return { content: "memory must be one non-empty line", isError: true, summary: "Remember: nothing to save" };
  const path = fileFor(api, file);
  let existing = "";
  try {
    existing = (await ctx.fs.read({ path })).data.toString("utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  await ctx.fs.write({ path, data: withMemory(existing, memory), mode: 0o644 });
  const name = relative(api.root, path);
  const ignored = path !== targetFile("project", api.root, api.home) ? ignoreLocalFile(api.root, path) : undefined;
  if (ignored) return { content: `Saved to ${name} (${ignored}). It applies from the next turn.`, summary: `Remember → ${name}` };
  return { content: `Saved to ${name}. It applies from the next turn.`, summary: `Remember → ${name}` };
}

async function runMemory(api: PluginApi, ctx: CommandContext): Promise<void> {
  const arg = ctx.args.trim();
  const text = arg.replace(/^add(\s+|$)/, "").trim();
  const adding = arg !== "";
  if (adding && !text) return ctx.print("/memory add needs the text to remember");
  const target = await pick(api, ctx, adding ? text : undefined);
  if (!target) return ctx.print("nothing saved");
  const file = targetFile(target, api.root, api.home);
  const refused = notOwnFile(file, target === "user" ? api.home : api.root);
  if (refused) return ctx.print(`nothing saved: ${refused}`);
  if (!adding) {
    edit(ctx, file);
    const ignored = target === "local" && existsSync(file) ? ignoreLocalFile(api.root, file) : undefined;
    if (ignored) ctx.print(ignored);
    return;
  }
  let existing = "";
  try {
    existing = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") return ctx.print(`cannot read ${file}: ${(err as Error).message}`);
  }
  mkdirSync(dirname(file), { recursive: true });
  // O_NOFOLLOW: a symlink put there since the check is refused by the kernel, not followed.
  // O_NONBLOCK: a FIFO put there does not hang the open. Truncated only after the opened file
  // itself is checked: one name only (a hard link would carry the line to its other name,
  // which may lie outside the project), a regular file.
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0), 0o644);
  } catch (err) {
    return ctx.print(`nothing saved: cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return ctx.print(`nothing saved: ${file} is not a plain file`);
    if (st.nlink > 1) return ctx.print(`nothing saved: ${file} has ${st.nlink} names (a hard link), and another may lie outside ${target === "user" ? api.home : api.root}; replace it with a copy of itself`);
    ftruncateSync(fd, 0);
    writeFileSync(fd, withMemory(existing, text));
  } finally {
    closeSync(fd);
  }
  const ignored = target === "local" ? ignoreLocalFile(api.root, file) : undefined;
  ctx.print(`Saved to ${shown(api, file)}: ${withMemory("", text).trim()} — the model sees it from your next prompt, and new sessions have it in their instructions.${ignored ? ` (${ignored})` : ""}`);
}

/** Which file: asked (the REPL answers person.ask), the project's AGENTS.md by default. */
async function pick(api: PluginApi, ctx: CommandContext, text: string | undefined): Promise<Target | undefined> {
  const a = await api.dispatch({
    type: "person.ask",
    sessionId: ctx.sessionId,
    kind: "memory.file",
    from: "memory",
    title: text === undefined ? "Edit which instructions file?" : "Save this memory to which instructions file?",
    detail: text === undefined ? [] : [withMemory("", text).trim()],
    fields: [{ name: "file", title: "file", type: "enum", options: [...TARGETS], optionLabels: TARGETS.map((t) => targetLabel(t, api.root, api.home)), default: "project" }],
  });
  if (a.decision !== "allow") return undefined;
  const v = a.values?.file;
  return (TARGETS as readonly unknown[]).includes(v) ? (v as Target) : "project";
}

function edit(ctx: CommandContext, file: string): void {
  const editor = process.env.VISUAL || process.env.EDITOR || "vi";
  mkdirSync(dirname(file), { recursive: true });
  // The editor is the person's own command (with its arguments): run through sh, the file as $1.
  const r = spawnSync("sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit" });
  if (r.error || r.status !== 0) return ctx.print(`${editor} did not finish (${r.error?.message ?? `exit ${r.status}`}); ${file} is as the editor left it`);
  ctx.print(`${file} saved — the model sees the change from your next prompt.`);
}

/** Why `file` is not the instructions file it stands for, or undefined: a symlink (a cloned
 *  repository's AGENTS.md linked to ~/.bashrc would have the line appended there), or a file
 *  whose real place is outside `within` (the project, or deepcode's home for the person's own). */
function notOwnFile(file: string, within: string): string | undefined {
  let st;
  try {
    st = lstatSync(file);
  } catch {
    st = undefined; // not there yet: it is created where it stands (its folder is checked below)
  }
  if (st?.isSymbolicLink()) return `${file} is a symlink (to ${readlinkSync(file)}); deepcode writes memories only to a plain file — replace the link with the file itself`;
  if (st && !st.isFile()) return `${file} is not a plain file`;
  if (st && st.nlink > 1) return `${file} has ${st.nlink} names (a hard link), and another may lie outside ${within}; deepcode writes memories only to a file with one name — replace it with a copy of itself`;
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p); // not there yet: its path as written
    }
  };
  const base = real(within);
  const at = st ? real(file) : join(real(dirname(file)), basename(file));
  if (at !== base && !at.startsWith(base + sep)) return `${file} is really ${at}, outside ${within}; deepcode writes memories only inside it`;
  return undefined;
}

function shown(api: PluginApi, file: string): string {
  const rel = relative(api.root, file);
  return rel.startsWith("..") ? file : rel;
}
