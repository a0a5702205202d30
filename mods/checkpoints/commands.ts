// `/undo` and `/rewind`, and `deepcode rewind` (the same command run from the shell, with
// nobody to ask). What they say about what they cannot do is part of the contract: a change
// checkpoints did not see is named, and a file changed since is never overwritten silently.

import type { CommandContext, PluginApi, RewindResult } from "../../src/contract/index.js";
import { applyRevert, planRevert, shown, type Applied, type RevertPlan } from "./revert.js";
import type { CheckpointStore, TurnInfo } from "./store.js";

export interface CommandDeps {
  api: PluginApi;
  store(sessionId: string): CheckpointStore;
  /** A note for the model at the session's next turn. */
  tell(sessionId: string, text: string): void;
}

/** What checkpoints never see, said wherever files are put back. */
export const BLIND_SPOT = "Checkpoints restore what Write, Edit and the shell commands deepcode can read changed; a program's own effects (a package install, a database, a git commit or push, files a script wrote) are not undone.";

export async function undo(d: CommandDeps, ctx: CommandContext): Promise<void> {
  const force = /(?:^|\s)--force\b/.test(ctx.args);
  const store = d.store(ctx.sessionId);
  const t = [...store.turns.values()].filter((x) => !x.rewound && !x.reverted && (x.before.size > 0 || x.unseen.length > 0 || (x.damaged?.length ?? 0) > 0)).sort((a, b) => b.turn - a.turn)[0];
  if (!t) return ctx.print("nothing to undo: no turn of this conversation changed a file checkpoints saw");
  const plan = planRevert([t], store.damagedAnywhere);
  ctx.print(`undo turn ${t.turn}${t.prompt ? ` (${quote(t.prompt)})` : ""}:`);
  const done = await revert(d, ctx, store, plan, force);
  d.tell(ctx.sessionId, `The person undid your file changes of turn ${t.turn}${t.prompt ? ` (${quote(t.prompt)})` : ""}: ${summaryForModel(done)}. The conversation is unchanged, so the files no longer match what that turn did: read them again before editing.`);
  failIfKept(ctx, done);
}

export async function rewind(d: CommandDeps, ctx: CommandContext): Promise<void> {
  const store = d.store(ctx.sessionId);
  const words = ctx.args.trim().split(/\s+/).filter(Boolean);
  const force = words.includes("--force");
  const n = words.find((w) => /^\d+$/.test(w));
  let what = words.find((w) => w === "files" || w === "conversation" || w === "both");
  const live = [...store.turns.values()].filter((t) => !t.rewound && t.prompt !== "").sort((a, b) => a.turn - b.turn);
  if (n === undefined) {
    ctx.print(listing(live, ctx.args));
    // Nobody to ask which turn (an editor's prompt, `deepcode acp`): the list, which says how
    // to go back, is the answer. (`deepcode rewind` never gets here: it needs --turn.)
    if (!ctx.interactive) return;
    return rewindAsked(d, ctx, live, force);
  }
  const turn = Number(n);
  if (what === undefined) {
    if (!ctx.interactive) what = "both";
    else {
      const w = await askWhat(d.api, ctx.sessionId, turn);
      if (!w) return ctx.print("not rewound");
      what = w;
    }
  }
  return rewindTo(d, ctx, store, turn, what as "files" | "conversation" | "both", force);
}

/** `/rewind N conversation` with file checkpoints off (settings checkpoints.enabled: false). */
export async function rewindConversationOnly(api: PluginApi, ctx: CommandContext): Promise<void> {
  const words = ctx.args.trim().split(/\s+/).filter(Boolean);
  const n = words.find((w) => /^\d+$/.test(w));
  const fail = (why: string): void => {
    ctx.print(`not rewound: ${why}`);
    if (!ctx.interactive) throw new Error(`not rewound: ${why}`);
  };
  if (words.includes("files") || words.includes("both") || !words.includes("conversation") || n === undefined) {
    return fail("file checkpoints are off (settings checkpoints.enabled), so only the conversation can go back: /rewind N conversation (deepcode rewind --conversation)");
  }
  const turn = Number(n);
  const conv = await api.dispatch({ type: "context.rewind", sessionId: ctx.sessionId, turn });
  if (!conv.ok) return fail(`the conversation cannot go back to the end of turn ${turn} (${conv.error})`);
  sayRewound(ctx, turn, conv, "Files are as they are now (checkpoints are off).");
}

function sayRewound(ctx: CommandContext, turn: number, conv: RewindResult, after: string): void {
  ctx.print(`conversation rewound to the end of turn ${turn}: ${conv.rewound.length} later turn${conv.rewound.length === 1 ? "" : "s"} left it (${conv.messages} messages remain; the next request extends turn ${turn}'s, still cached). ${after}`);
  for (const note of conv.notes) ctx.print(`! ${note}`);
}

async function rewindAsked(d: CommandDeps, ctx: CommandContext, live: TurnInfo[], force: boolean): Promise<void> {
  const a = await d.api.dispatch({
    type: "person.ask",
    sessionId: ctx.sessionId,
    kind: "checkpoints.rewind",
    from: "checkpoints",
    title: "Rewind to the end of which turn?",
    detail: ["0 goes back to before the first turn"],
    fields: [{ name: "turn", title: "turn", type: "integer", required: true, minimum: 0, maximum: Math.max(0, ...live.map((t) => t.turn)) }],
  });
  const turn = a.decision === "allow" ? a.values?.turn : undefined;
  if (typeof turn !== "number") return ctx.print("not rewound");
  const what = await askWhat(d.api, ctx.sessionId, turn);
  if (!what) return ctx.print("not rewound");
  return rewindTo(d, ctx, d.store(ctx.sessionId), turn, what, force);
}

async function askWhat(api: PluginApi, sessionId: string, turn: number): Promise<"files" | "conversation" | "both" | undefined> {
  const a = await api.dispatch({
    type: "person.ask",
    sessionId,
    kind: "checkpoints.rewind-what",
    from: "checkpoints",
    title: `Rewind to the end of turn ${turn}: files, conversation, or both?`,
    detail: ["files: put back the files later turns changed · conversation: cut the conversation after that turn (it stays cached)"],
    choices: [
      { key: "b", label: "both" },
      { key: "f", label: "files" },
      { key: "c", label: "conversation" },
    ],
  });
  if (a.decision !== "allow") return undefined;
  return a.choice === "f" ? "files" : a.choice === "c" ? "conversation" : a.choice === "b" ? "both" : undefined;
}

async function rewindTo(d: CommandDeps, ctx: CommandContext, store: CheckpointStore, turn: number, what: "files" | "conversation" | "both", force: boolean): Promise<void> {
  const last = Math.max(0, ...[...store.turns.values()].filter((t) => !t.rewound).map((t) => t.turn));
  if (what === "files" && turn > last) {
    const msg = `there is no turn ${turn}: the last turn is ${last}`;
    ctx.print(`not rewound: ${msg}`);
    if (!ctx.interactive) throw new Error(`not rewound: ${msg}`);
    return;
  }
  const later = [...store.turns.values()].filter((t) => t.turn > turn && !t.reverted);
  // The conversation first: a turn it cannot go back to (none such, the last one, a turn that
  // failed) changes nothing at all, files included.
  let conv: RewindResult | undefined;
  if (what !== "files") {
    conv = await d.api.dispatch({ type: "context.rewind", sessionId: ctx.sessionId, turn });
    if (!conv.ok) {
      ctx.print(`not rewound: the conversation cannot go back to the end of turn ${turn} (${conv.error})${what === "both" ? "; the files were left as they are" : ""}`);
      if (!ctx.interactive) throw new Error(`not rewound: ${conv.error}`);
      return;
    }
    store.rewound(conv.rewound, turn);
    sayRewound(ctx, turn, conv, "The transcript keeps them, marked as rewound.");
  }
  let files: Applied | undefined;
  if (what !== "conversation") {
    ctx.print(`files as they were after turn ${turn}:`);
    files = await revert(d, ctx, store, planRevert(later, store.damagedAnywhere), force);
  } else {
    const changed = later.filter((t) => t.before.size > 0);
    if (changed.length) ctx.print(`files are as they are now: turns ${changed.map((t) => t.turn).join(", ")} changed some (/rewind ${turn} files puts them back)`);
  }
  d.tell(ctx.sessionId, noteFor(turn, conv?.ok === true, files, later));
  failIfKept(ctx, files);
}

function noteFor(turn: number, conversation: boolean, files: Applied | undefined, later: TurnInfo[]): string {
  const changed = later.filter((t) => t.before.size > 0).map((t) => t.turn);
  if (conversation && files) return `The person rewound the conversation and the files to the end of turn ${turn}: what came after is gone from the conversation, and ${summaryForModel(files)}.`;
  if (conversation) {
    return changed.length
      ? `The person rewound the conversation to the end of turn ${turn}: what came after is gone from it, but the files were NOT put back — they still have the changes made after turn ${turn}. Read files again before editing.`
      : `The person rewound the conversation to the end of turn ${turn}: what came after is gone from it.`;
  }
  return `The person put the files back as they were after turn ${turn}: ${summaryForModel(files!)}. The conversation is unchanged, so read files again before editing.`;
}

/** Put a plan's files back, asking about each conflict; print what happened. */
async function revert(d: CommandDeps, ctx: CommandContext, store: CheckpointStore, plan: RevertPlan, force: boolean): Promise<Applied> {
  const root = d.api.root;
  const done = await applyRevert(store, plan, root, async (item) => {
    if (force) return true;
    const a = await d.api.dispatch({
      type: "person.ask",
      sessionId: ctx.sessionId,
      kind: "checkpoints.conflict",
      from: "checkpoints",
      title: `${shown(root, item.path)} changed on disk since deepcode's last change to it (by you or another program)`,
      detail: [`putting it back as it was before turn ${item.turn} would overwrite that change`],
      choices: [
        { key: "o", label: "overwrite" },
        { key: "k", label: "keep it as it is" },
      ],
    });
    return a.decision === "allow" && a.choice === "o";
  });
  // What damaged journal lines recorded is unknown, so it was not put back: a failure, said.
  if (plan.damaged.length) {
    const where = plan.damaged.map((x) => `line ${x.line}${x.turn !== undefined ? ` (turn ${x.turn})` : ""}`).join(", ");
    done.failed.push({ path: "(checkpoint journal)", error: `${where} of the checkpoint journal could not be read: the file changes ${plan.damaged.length === 1 ? "it" : "they"} recorded were not put back — check those files yourself` });
  }
  // Only a complete revert marks the turns: with a file kept, a later /undo or rewind tries
  // again (what was put back is then already as it should be, and is left alone).
  if (done.kept.length === 0 && done.failed.length === 0 && plan.turns.length) store.reverted(plan.turns);
  const width = Math.max(0, ...done.restored.map((r) => r.path.length), ...done.kept.map((k) => k.length));
  for (const r of done.restored) ctx.print(`  ${r.path.padEnd(width)}  ${r.what}`);
  for (const k of done.kept) ctx.print(`  ${k.padEnd(width)}  kept: changed on disk since${force ? "" : " (--force overwrites)"}`);
  for (const f of done.failed) ctx.print(`  ${f.path.padEnd(width)}  NOT restored: ${f.error}`);
  if (done.restored.length + done.kept.length + done.failed.length + plan.unseen.length === 0) ctx.print("  (no file to put back: they are already as they were)");
  if (plan.dropped.length) ctx.print(`! the file checkpoints of turn${plan.dropped.length === 1 ? "" : "s"} ${plan.dropped.join(", ")} were dropped to keep the store within its bound (settings checkpoints.maxBytes): their changes stay`);
  if (plan.unseen.length) {
    ctx.print("! not undone — checkpoints cannot see these:");
    for (const u of plan.unseen) ctx.print(`    turn ${u.turn}: ${u.what}`);
  }
  if (plan.unseen.length || done.restored.length) ctx.print(`  ${BLIND_SPOT}`);
  return done;
}

/** Where nobody could answer (deepcode rewind), a kept file is a failure: exit 1, after the
 *  model was told what really happened. */
function failIfKept(ctx: CommandContext, done: Applied | undefined): void {
  if (!ctx.interactive && done?.kept.length) throw new Error(`${done.kept.length} file(s) changed on disk since and were kept: --force overwrites them`);
  if (!ctx.interactive && done?.failed.length) throw new Error(`not everything was put back: ${done.failed.map((f) => f.path).join(", ")}`);
}

function summaryForModel(a: Applied): string {
  const parts: string[] = [];
  if (a.restored.length) parts.push(`${a.restored.map((r) => `${r.path} (${r.what.split(" (")[0]})`).join(", ")} ${a.restored.length === 1 ? "is" : "are"} back as before`);
  if (a.kept.length) parts.push(`${a.kept.join(", ")} kept as they are (changed outside deepcode since)`);
  if (a.failed.length) parts.push(`${a.failed.map((f) => f.path).join(", ")} could not be restored`);
  return parts.join("; ") || "no file needed putting back";
}

function listing(live: TurnInfo[], args: string): string {
  if (live.length === 0) return "no turns with checkpoints in this conversation yet";
  const rows = live.map((t) => {
    const files = t.before.size ? `${t.before.size} file${t.before.size === 1 ? "" : "s"}` : "no files";
    const flags = [t.reverted ? "files undone" : "", t.dropped ? "checkpoint dropped" : "", t.unseen.length ? "some effects unseen" : ""].filter(Boolean).join(", ");
    return `  ${String(t.turn).padStart(3)}  ${quote(t.prompt).padEnd(50)}  ${files.padEnd(9)}  $${t.costUsd.toFixed(4)}${flags ? `  (${flags})` : ""}`;
  });
  return [`turns of this conversation${args.trim() ? "" : " (/rewind N [files|conversation|both])"}:`, ...rows].join("\n");
}

function quote(prompt: string): string {
  const l = prompt.replace(/\s+/g, " ").trim();
  return l.length > 48 ? `${l.slice(0, 47)}…` : l;
}
