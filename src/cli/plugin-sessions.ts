// PluginApi.sessions (src/contract/host.ts): engine sessions a plugin drives, opened the way
// `-p` opens them (app.engineOptions(), Engine.start / Engine.resume) and run through the same
// chain — `deepcode acp` is a front end like the REPL, not a second loop, and adds no hook of its
// own after assembly (@-mentions are mods/mentions, as for every front end). Any number may be
// open at once (an editor's threads): each engine is in `app.driven`, where the gate, the
// spawner and the cost engine find it by its session's id, so none follows "the last one".

import type { SessionCommand, SessionHandle, SessionHost, StreamEvent } from "../contract/index.js";
import type { Chain } from "../core/chain.js";
import { Engine, type EngineOptions } from "../core/engine/engine.js";
import type { SessionStore } from "../core/session/store.js";
import { realpathSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { isInside } from "../lib/paths.js";

/** What of the assembled app this needs (assembly's App has it all). */
interface SessionApp {
  chain: Chain;
  root: string;
  store: SessionStore;
  engine?: Engine;
  driven: Map<string, Engine>;
  cost?: { flush(): Promise<void>; tierMode(): { kind: string; tier?: string }; setTier(name: string): { ok: boolean; message: string } };
  engineOptions(): EngineOptions;
  commandLines?: SessionCommandLines;
}

/** Slash commands in these sessions (session-commands.ts, which this file must not import:
 *  it needs the REPL's command runner, and assembly imports this file). */
export interface SessionCommandLines {
  /** What a prompt may start with, for a front end's list (custom commands win a name). */
  list(): SessionCommand[];
  /** Run `/name args` in the engine's session; undefined: the text names no command. */
  run(engine: Engine, text: string, o: { signal?: AbortSignal; print(text: string): void }): AsyncIterable<StreamEvent> | undefined;
  /** Resolves once names that come late (MCP prompts) are in `list()` (SessionHandle.commandsSettled). */
  settled(): Promise<void>;
}

export function pluginSessions(app: SessionApp, warn: (m: string) => void): SessionHost {
  return {
    async start(options = {}) {
      const cwd = options.cwd === undefined ? undefined : folderIn(app.root, options.cwd);
      const opts = { ...app.engineOptions(), ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}), ...(cwd !== undefined ? { cwd } : {}) };
      if (options.resume !== undefined && !app.store.list().some((s) => s.id === options.resume)) {
        throw new Error(`no session '${options.resume}' in ${app.root} (deepcode sessions lists them)`);
      }
      const engine = options.resume !== undefined ? await Engine.resume(opts, options.resume) : await Engine.start(opts);
      for (const note of engine.startNotes) warn(note);
      // The gate and the host's cores find each session's engine (its Bash folder) by its id;
      // the latest is also the current one, for whatever asks without an id.
      app.driven.set(engine.sessionId, engine);
      app.engine = engine;
      return handleOf(app, engine);
    },
  };
}

function handleOf(app: SessionApp, engine: Engine): SessionHandle {
  return Object.freeze({
    id: engine.sessionId,
    resumed: engine.wasResumed,
    submit: (prompt: string, options: { signal?: AbortSignal; print?: (text: string) => void } = {}) =>
      app.commandLines?.run(engine, prompt, { signal: options.signal, print: options.print ?? (() => undefined) }) ?? engine.submit(prompt, { signal: options.signal }),
    commands: () => app.commandLines?.list() ?? [],
    commandsSettled: () => app.commandLines?.settled() ?? Promise.resolve(),
    settings: () => {
      const mode = app.cost?.tierMode();
      return { model: engine.profile.model, tier: mode === undefined || mode.kind === "model" ? "default" : mode.kind === "auto" ? "auto" : (mode.tier ?? "default") };
    },
    configure: (change: { model?: string; tier?: string }) => {
      if (change.tier !== undefined) {
        if (!app.cost) throw new Error("tiers are not available in this run");
        const r = app.cost.setTier(change.tier);
        if (!r.ok) throw new Error(r.message);
      }
      if (change.model !== undefined) {
        if (!change.model.trim()) throw new Error("the model name is empty");
        engine.setModel(change.model);
        if (change.tier === undefined) app.cost?.setTier("default"); // a chosen model: tiers follow it again, as /model
      }
    },
    history: () => engine.messages,
    close: async (reason = "exit") => {
      await engine.close(reason);
      if (app.driven.get(engine.sessionId) === engine) app.driven.delete(engine.sessionId);
      if (app.engine === engine) app.engine = [...app.driven.values()].at(-1);
      await app.cost?.flush();
    },
  });
}

/** `cwd` as a folder of the project `root` (spelled from `root`, so the gate's inside-the-project
 *  tests hold through a link); a folder outside it, or a relative one, throws naming both. */
function folderIn(root: string, cwd: string): string {
  const [r, c] = [real(root), real(cwd)];
  if (!isAbsolute(cwd) || !isInside(r, c)) {
    throw new Error(`this deepcode serves the project it started in (${root}), not ${cwd}: a session's folder must be that project or a folder inside it (start another agent in that folder for its project)`);
  }
  return join(root, relative(r, c));
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // A folder that does not exist: compared as written (and refused by Bash when used).
    return path;
  }
}
