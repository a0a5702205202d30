// Built-in mod: checkpoints. Before a tool changes a file, the file's previous content (or its
// absence) is saved beside the session (store.ts), so `/undo` can put back what the last turn
// changed and `/rewind` can go back to the end of any turn — files, conversation, or both;
// `deepcode rewind` runs `/rewind` from the shell (subcommand.ts).
//
// What is saved, and when:
//   tool.call   before every call that is not read-only, `tool.effects` names the files it
//               writes (Write/Edit: file_path; Bash: what the shell reader sees — redirections,
//               `sed -i`, `tee`, `cp`/`mv`/`rm` operands…); each is saved first. What it cannot
//               name (a program the reader does not know, an MCP tool) is recorded as unseen
//               and said whenever files are put back.
//   fs.write    a backstop: a plugin tool's write through ctx.fs.write is saved too.
//   turn.complete  each touched path's state at the end of the turn (what /undo compares
//               with, to find a file changed since by someone else), the turn's prompt and
//               cost; then the store's bound (settings checkpoints.maxBytes) is enforced and a
//               drop is said (ui.render).
// Changes belong to the outermost running turn (a subagent's writes are its parent turn's);
// a change made between turns belongs to the last turn. `/undo` and `/rewind` leave a note
// for the model at the next turn (context.tail).

import { lstatSync } from "node:fs";
import { DeniedError, type JsonValue, type Plugin } from "../../src/contract/index.js";
import { isObject } from "../../src/lib/json.js";
import { rewind, rewindConversationOnly, undo } from "./commands.js";
import { entryOf, linkTarget, pathsBelow, stateOf } from "./files.js";
import { shown } from "./revert.js";
import { CheckpointStore } from "./store.js";
import { rewindSubcommand } from "./subcommand.js";

const plugin: Plugin = {
  id: "checkpoints",
  description: "file checkpoints before every change; /undo and /rewind",
  register(api) {
    const { enabled, maxBytes } = checkpointSettings(api.settings.get("checkpoints"));
    const sessionsDir = api.host.sessionsDir;
    if (!enabled) {
      const off = (ctx: { print(t: string): void }): void => ctx.print("checkpoints are off (settings checkpoints.enabled): nothing to put back");
      api.command({ name: "undo", description: "put back the files the last turn changed (checkpoints are off)", run: off });
      // The conversation needs no file store: it can still go back (and stays cached).
      api.command({ name: "rewind", args: "N conversation", description: "cut the conversation back to the end of turn N (file checkpoints are off)", run: (ctx) => rewindConversationOnly(api, ctx) });
      api.subcommand(rewindSubcommand((ctx) => rewindConversationOnly(api, ctx)));
      return;
    }
    const stores = new Map<string, CheckpointStore>();
    const store = (id: string): CheckpointStore => {
      let s = stores.get(id);
      if (!s) stores.set(id, (s = new CheckpointStore(sessionsDir, id, maxBytes)));
      return s;
    };
    /** The session whose turns own changes, and its running turn (outermost first). */
    let main = "";
    const running: Array<{ sessionId: string; turn: number; prompt: string; costUsd: number }> = [];
    const owner = (): { sessionId: string; turn: number } | undefined => running[0] ?? (main ? { sessionId: main, turn: store(main).lastTurn } : undefined);

    const save = (turn: number, s: CheckpointStore, path: string): void => {
      if (s.touched(turn, path)) return;
      const all = pathsBelow(path);
      if (all === null) s.unseen(turn, `${shown(api.root, path)}: more than 5000 files below it, not saved`);
      for (const p of all ?? [path]) {
        for (const q of [p, linkTarget(p)]) {
          if (q === undefined || s.touched(turn, q)) continue;
          const size = sizeOf(q);
          if (size > maxBytes) {
            s.unseen(turn, `${shown(api.root, q)}: ${size} bytes, larger than the store's bound (checkpoints.maxBytes), not saved`);
            continue;
          }
          try {
            s.touch(turn, q, entryOf(q, (data) => s.save(data)));
          } catch (err) {
            throw new Error(`could not save a checkpoint of ${shown(api.root, q)} in ${s.dir} (${reasonOf(err)})`, { cause: err });
          }
        }
      }
    };

    /** What each path the turn touched is now, and new files below touched folders: on every
     *  turn.complete of the turn (a Stop hook's continuation goes on touching paths). */
    const recordEnds = (sessionId: string, turn: number): void => {
      const s = store(sessionId);
      const t = s.turn(turn);
      for (const [path, before] of [...t.before]) {
        if (before?.kind !== "dir") continue;
        for (const p of pathsBelow(path) ?? []) if (!t.before.has(p)) s.touch(turn, p, null);
      }
      for (const path of t.before.keys()) s.after(turn, path, stateOf(path));
    };

    /** The turn ended: its end states, its line in the journal, the bound. */
    const finish = async (sessionId: string, turn: number, prompt: string, costUsd: number): Promise<void> => {
      const s = store(sessionId);
      recordEnds(sessionId, turn);
      s.ended(turn, prompt, costUsd);
      const dropped = s.enforceBound();
      if (dropped.turns.length) {
        const text = `checkpoints: the store passed its bound (${mib(maxBytes)}, settings checkpoints.maxBytes): dropped the file checkpoints of turn${dropped.turns.length === 1 ? "" : "s"} ${dropped.turns.join(", ")} (${mib(dropped.bytes)} freed); /undo and /rewind can no longer put back what those turns changed`;
        await api.dispatch({ type: "ui.render", item: { kind: "text", text, level: "warn" } }).catch(() => undefined);
      }
    };

    api.on("session.start", (e, next) => {
      if (running.length === 0) main = e.sessionId;
      return next(e);
    });

    api.on("turn.start", async (e, next) => {
      // The same session starting a turn while one is still recorded as running: that one
      // ended without turn.complete (it failed inside), so it is finished now.
      if (running[0]?.sessionId === e.sessionId) {
        const [t] = running.splice(0, running.length);
        await finish(t.sessionId, t.turn, t.prompt, t.costUsd);
      }
      if (running.length === 0) main = e.sessionId;
      running.push({ sessionId: e.sessionId, turn: e.turn, prompt: e.prompt, costUsd: 0 });
      return next(e);
    });

    api.on("model.usage", async (e, next) => {
      const r = await next(e);
      if (running[0] && r && Number.isFinite(r.costUsd)) running[0].costUsd += r.costUsd;
      return r;
    });

    api.on(
      "tool.call",
      async (e, next) => {
        const o = owner();
        if (!o) return next(e);
        const fx = await api.dispatch({ type: "tool.effects", sessionId: e.sessionId, tool: e.tool, input: e.input });
        if (fx.readOnly) return next(e);
        const s = store(o.sessionId);
        const call = e.tool === "Bash" && typeof e.input.command === "string" ? `Bash \`${e.input.command.length > 60 ? `${e.input.command.slice(0, 59)}…` : e.input.command}\`` : e.tool;
        try {
          // A tool's own line already starts with its name ("Remember: …"): said once.
          for (const u of fx.unknown) s.unseen(o.turn, u.startsWith(`${call}: `) ? u : `${call}: ${u}`);
          for (const p of fx.writes) save(o.turn, s, p);
        } catch (err) {
          // A change nothing could put back must not pass silently: the call is not run, and
          // the model reads why (and the person sees it as the call's error).
          const why = err instanceof Error ? err.message : String(err);
          return { content: `${e.tool} was not run: ${why}, so /undo and /rewind could not put back what it changes. Nothing was changed. Free space for deepcode's session store and try again, or turn checkpoints off (settings checkpoints.enabled: false).`, isError: true, summary: `${e.tool}: not run (no checkpoint)` };
        }
        return next(e);
      },
      { timeoutMs: 120_000 },
    );

    api.on("fs.write", (e, next) => {
      const o = owner();
      try {
        if (o) save(o.turn, store(o.sessionId), e.path);
      } catch (err) {
        throw new DeniedError(`${err instanceof Error ? err.message : String(err)}: not written, as /undo and /rewind could not put it back`, "checkpoints");
      }
      return next(e);
    });

    api.on("turn.complete", async (e, next) => {
      const r = await next(e);
      const i = running.findIndex((x) => x.sessionId === e.sessionId && x.turn === e.turn);
      // A Stop hook's continueWith keeps the turn running: its end states so far are recorded,
      // and it finishes at the turn.complete that comes back without one (or at the next turn.start).
      if (i === 0 && r?.continueWith) recordEnds(e.sessionId, e.turn);
      else if (i === 0) {
        const [t] = running.splice(0, running.length);
        await finish(t.sessionId, t.turn, t.prompt, t.costUsd);
      } else if (i > 0) running.splice(i, 1);
      return r;
    }, { timeoutMs: 120_000 });

    api.on("context.tail", async (e, next) => {
      const r = await next(e);
      const mine = store(e.sessionId).takeNotes();
      return mine.length ? { notes: [...r.notes, ...mine.map((text, i) => ({ id: `checkpoints-${i}`, text }))] } : r;
    });

    const deps = {
      api,
      store,
      tell: (id: string, text: string) => store(id).note(text),
    };
    api.command({ name: "undo", args: "[--force]", description: "put back the files the last turn changed (a file changed since asks first)", run: (ctx) => undo(deps, ctx) });
    api.command({
      name: "rewind",
      args: "[N] [files|conversation|both]",
      description: "list the turns, go back to the end of one: files, conversation (stays cached), or both",
      complete: (p, words) => (words.length >= 1 ? ["files", "conversation", "both"].filter((x) => x.startsWith(p)) : []),
      run: (ctx) => rewind(deps, ctx),
    });
    // `deepcode rewind` from the shell (subcommand.ts).
    api.subcommand(rewindSubcommand((ctx) => rewind(deps, ctx)));
  },
};

/** Why a save failed, in words (node's ENOSPC message names no file and no remedy). */
function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOSPC") return "no space left on device";
  if (code === "EDQUOT") return "disk quota exceeded";
  return err instanceof Error ? err.message : String(err);
}

function sizeOf(p: string): number {
  try {
    const st = lstatSync(p);
    return st.isFile() ? st.size : 0;
  } catch {
    return 0; // absent: nothing to save but its absence
  }
}

function mib(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`;
}

export const DEFAULT_CHECKPOINT_BYTES = 256 * 1024 * 1024;

/** Settings `checkpoints`: { enabled?: boolean (default true), maxBytes?: number (default 256 MiB) }. */
export function checkpointSettings(v: JsonValue | undefined): { enabled: boolean; maxBytes: number } {
  const o = isObject(v) ? v : {};
  const maxBytes = typeof o.maxBytes === "number" && o.maxBytes >= 0 ? Math.floor(o.maxBytes) : DEFAULT_CHECKPOINT_BYTES;
  return { enabled: o.enabled !== false, maxBytes };
}

export default plugin;
