// Built-in mod: acp — `deepcode acp`, deepcode as an Agent Client Protocol agent: an editor
// (Zed, JetBrains, Neovim, Emacs) starts it and speaks JSON-RPC 2.0 on its stdin/stdout
// (agent.ts: the methods; rpc.ts: the transport; updates.ts: what the stream becomes; mcp.ts:
// the editor's MCP servers; config.ts: model and tier; editor.ts with editor-io.ts, a second
// mod innermost in the builtin tier: files and commands through the editor).
//
// Turns run in engine sessions the plugin API opens (api.sessions), through the same chain as
// the REPL and `-p`. The editor is a person: this mod sits in the prepend tier before
// assembly's non-interactive step, so while `deepcode acp` serves, a permission question of one
// of its sessions reaches the editor (session/request_permission) instead of being denied
// unasked; with no connection (every other run) it passes the question on.

import type { Plugin } from "../../src/contract/index.js";
import type { AcpAgent } from "./agent.js";
import { link } from "./link.js";

const plugin: Plugin = {
  id: "acp",
  description: "deepcode acp: the Agent Client Protocol over stdio, for editors",
  placement: { tier: "prepend", before: ["non-interactive"] },
  register(api) {
    let agent: AcpAgent | undefined;
    api.on("permission.ask", (e, next) => agent?.ask(e) ?? next(), { timeoutMs: Infinity });
    // A session the editor opened in a folder inside the project: the model hears where once.
    api.on("context.tail", async (e, next) => {
      const r = await next();
      const note = agent?.folderNote(e.sessionId);
      return note ? { ...r, notes: [...r.notes, note] } : r;
    });
    api.on("tool.call", async (e, next) => {
      const ended = agent?.running(e.sessionId, e.callId, e.tool);
      try {
        return await next();
      } finally {
        ended?.();
      }
    });
    api.subcommand({
      name: "acp",
      description: "speak the Agent Client Protocol on stdin/stdout (for an editor)",
      usage: "",
      async run(args, ctx) {
        if (args.length > 0) {
          const e = new Error(`deepcode acp takes no arguments (got '${args[0]}'): the editor starts it in the project folder`);
          e.name = "UsageError";
          throw e;
        }
        const { AcpAgent } = await import("./agent.js");
        const { serve } = await import("./rpc.js");
        const a = new AcpAgent(api);
        agent = a;
        // Files and commands through the editor; a sandboxed command stays here (editor-io.ts).
        link.effects = a.effects(() => api.statusOf("sandbox")?.active === true);
        const peer = serve(process.stdin, process.stdout, (method, params) => a.handle(method, params), (m) => ctx.err(`deepcode acp: ${m}\n`));
        a.attach(peer);
        const stop = (): void => void process.stdin.destroy();
        ctx.signal.addEventListener("abort", stop, { once: true });
        await peer.closed;
        ctx.signal.removeEventListener("abort", stop);
        await a.closeAll();
        agent = undefined;
        link.effects = undefined;
        return 0;
      },
    });
  },
};

export default plugin;
