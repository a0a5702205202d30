// PluginApi.sessions (src/contract/host.ts): engine sessions a plugin drives, opened the way
// `-p` opens them (app.engineOptions(), Engine.start / Engine.resume) and run through the same
// chain — `deepcode acp` is a front end like the REPL, not a second loop. The first session
// registers the @-mention expansion `-p` and the REPL register for themselves.

import type { SessionHandle, SessionHost } from "../contract/index.js";
import type { Chain } from "../core/chain.js";
import { Engine, type EngineOptions } from "../core/engine/engine.js";
import type { SessionStore } from "../core/session/store.js";
import { registerMentions } from "./mentions.js";

/** What of the assembled app this needs (assembly's App has it all). */
interface SessionApp {
  chain: Chain;
  root: string;
  store: SessionStore;
  engine?: Engine;
  cost?: { flush(): Promise<void> };
  engineOptions(): EngineOptions;
}

export function pluginSessions(app: SessionApp, warn: (m: string) => void): SessionHost {
  let mentions = false;
  return {
    async start(options = {}) {
      if (!mentions) {
        mentions = true;
        registerMentions(app.chain, app.root, { onNotes: (notes) => notes.forEach(warn) });
      }
      const opts = { ...app.engineOptions(), ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}) };
      if (options.resume !== undefined && !app.store.list().some((s) => s.id === options.resume)) {
        throw new Error(`no session '${options.resume}' in ${app.root} (deepcode sessions lists them)`);
      }
      const engine = options.resume !== undefined ? await Engine.resume(opts, options.resume) : await Engine.start(opts);
      for (const note of engine.startNotes) warn(note);
      // The gate and the host's cores read the current session's engine (its Bash folder).
      app.engine = engine;
      return handleOf(app, engine);
    },
  };
}

function handleOf(app: SessionApp, engine: Engine): SessionHandle {
  return Object.freeze({
    id: engine.sessionId,
    resumed: engine.wasResumed,
    submit: (prompt: string, options: { signal?: AbortSignal } = {}) => engine.submit(prompt, { signal: options.signal }),
    history: () => engine.messages,
    close: async (reason = "exit") => {
      await engine.close(reason);
      if (app.engine === engine) app.engine = undefined;
      await app.cost?.flush();
    },
  });
}
