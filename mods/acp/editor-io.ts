// Built-in mod: acp-io — the innermost part of `deepcode acp`. When the editor offers them
// (clientCapabilities fs.readTextFile, fs.writeTextFile, terminal), the Read, Write and Edit
// calls of the editor's sessions read and write through `fs/read_text_file` and
// `fs/write_text_file` (the agent sees unsaved buffers), and Bash runs in the editor's
// terminals (`terminal/*`) — unless the Bash sandbox is active: a sandboxed command keeps
// running here, under the sandbox, so containment is never traded for a terminal.
//
// It is the innermost hook on `fs.*` and `process.run` — the one step placed after the sandbox
// (`after: ["sandbox"]`, which puts it after everything the sandbox is after) — because it
// answers in the disk's place: every other hook (the permission gate, the path fence, plan
// mode's read-only rule, checkpoints, the user's hooks, the sandbox) has judged the effect
// first, and a command the sandbox refuses never reaches a terminal. It rewrites no request, so
// nothing the sandbox wrapped is unwrapped here: while the sandbox is active a command passes
// on, contained. Every other run: no agent, every hook passes on.

import type { Plugin } from "../../src/contract/index.js";
import { link } from "./link.js";

const plugin: Plugin = {
  id: "acp-io",
  description: "deepcode acp: files and commands through the editor when it offers them",
  placement: { tier: "builtin", after: ["sandbox"] },
  register(api) {
    api.on("fs.read", (e, next) => link.effects?.read(e, () => next()) ?? next(), { timeoutMs: Infinity });
    api.on("fs.write", (e, next) => link.effects?.write(e, () => next()) ?? next(), { timeoutMs: Infinity });
    api.on("process.run", (e, next) => link.effects?.run(e, () => next()) ?? next(), { timeoutMs: Infinity });
  },
};

export default plugin;
