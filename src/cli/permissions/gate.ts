// The permission gate on the chain.
//
// tool.check, prepend tier (outermost): computes decide(). A deny answers at once — nothing
// downstream runs, so no hook can allow what a rule denies. Otherwise it calls next(), where
// user-tier hooks (Claude Code PreToolUse hooks, plugins) may answer, and combines:
//   - a downstream deny (or a failing hook, which the chain turns into a deny) → deny;
//   - a downstream ask → ask (hooks may tighten);
//   - a downstream allow → allow only if our decision was allow, or was the *default* ask
//     ("no rule allows it"). An explicit ask — a rule's, a secret's, a protected file's, or a
//     command the shell parser cannot read — stays ask: a hook vouches for what it checked,
//     not for what deepcode could not check.
//   - nothing downstream answered → our own decision, default included.
//
// Where the default lives: in the gate's own decision (decide() knows read-only → allow,
// mutating → ask, unknown → deny), set as tool.check's default answer on the chain
// (Chain.setGateDefault): the chain's tail answers it when no hook did, so hooks in between (e.g.
// the call-storm breaker) see that default decision, as they would without the gate, and the
// prepend hook combines it like any downstream answer (combining the decision with itself gives
// the decision back). No marker is needed to tell "nothing downstream answered" from a deny.

// fs.write, prepend tier: refuses (throws) a write outside the fence or matching an Edit/Write
// deny rule — a backstop for plugin tools that write without a Write/Edit tool.check.

import { resolve } from "node:path";
import type { Chain } from "../../core/chain.js";
import { DeniedError, type EventOf, type GateDecision, type Result } from "../../contract/index.js";
import { writeVerdict } from "./checks.js";
import { decide, type Decision } from "./decide.js";
import { rememberRule } from "./remember.js";
import { DecisionAudit } from "./audit.js";
import { CallCover, fenceFetchHook, fenceReadHook } from "./fence.js";
import type { GateEnv } from "./paths.js";
import type { Rule } from "./rules.js";

// GateEnv lives in paths.ts beside PathEnv, so fence.ts needs nothing from this file.
export type { GateEnv } from "./paths.js";

export interface PermissionGateOptions {
  /** Every rule in force for a session's calls: settings layers plus the session's `a` answers
   *  and temporary allows. Read at each check; `sessionId` is the calling session's (a
   *  subagent's own), absent for a write outside any call. */
  rules: (sessionId?: string) => readonly Rule[];
  /** The paths the decision needs; `cwd` is the calling session's Bash folder. */
  env: (sessionId?: string) => GateEnv;
  /** The managed policy is broken (permissionSetup().managedBroken): deny every tool call and
   *  refuse every write. */
  managedBroken: boolean;
  /** The owner name hooks are registered under. */
  owner?: string;
  /** What each call's check named and whether a person said yes to it (fence.ts): given when
   *  the core's http.fetch policy reads it too (privateFetchAllowed), else the gate's own. */
  cover?: CallCover;
}

/** A write the fence refuses. A DeniedError, so the chain hands it to the caller rather than
 *  skipping the hook: the write does not happen. */
export class WriteRefusedError extends DeniedError {
  constructor(readonly path: string, reason: string) {
    super(`write refused: ${reason}`, "permissions");
    this.name = "WriteRefusedError";
  }
}

export function registerPermissionGate(chain: Chain, opts: PermissionGateOptions): () => void {
  const owner = opts.owner ?? "permissions";
  const decided = new WeakMap<object, Decision>(); // event → the gate's decision, for the default answer
  const decideFor = (e: EventOf<"tool.check">): Decision =>
    decided.get(e) ?? decide({ tool: e.tool, input: e.input, readOnly: e.readOnly }, opts.rules(e.sessionId), { ...opts.env(e.sessionId), managedBroken: opts.managedBroken });

  const cover = opts.cover ?? new CallCover();
  const audit = new DecisionAudit(chain); // one tool.decided per decision (audit.ts)
  const fence = { rules: () => opts.rules(), env: () => opts.env(), managedBroken: opts.managedBroken, cover };
  const offs = [
    chain.on("prepend", owner, "tool.check", null, async (e, next) => {
      cover.record(e, opts.env(e.sessionId)); // what the question names, for the read/fetch fence
      const d = decideFor(e);
      if (d.decision === "deny") {
        await audit.checked(e, answer(d), d.rule);
        return answer(d);
      }
      decided.set(e, d);
      let r = combine(d, await next());
      // For an ask: what an `a` answer would add for the session, shown before it is pressed.
      if (r.decision === "ask" && !r.remember) r = { ...r, remember: rememberRule({ tool: e.tool, input: e.input, readOnly: e.readOnly }, opts.env(e.sessionId)) };
      // The gate's own decision stood (combine answered it): its rule decided.
      await audit.checked(e, r, r.by === d.by && r.decision === d.decision ? d.rule : undefined);
      return r;
    }),
    chain.setGateDefault("tool.check", (e) => answer(decideFor(e))),
    // A person's yes to a call's question, for the fetch policy: a `y` lets that call's request
    // reach the loopback or private address its question named (privateFetchAllowed).
    chain.on("prepend", owner, "permission.ask", null, async (e, next) => {
      const r = await next();
      if (r.decision === "allow") cover.approve(e.callId);
      await audit.answered(e, r);
      return r;
    }, { timeoutMs: Infinity }),
    chain.on("prepend", owner, "fs.write", null, fenceWriteHook(opts)),
    chain.on("prepend", owner, "fs.read", null, fenceReadHook(fence)),
    chain.on("prepend", owner, "http.fetch", null, fenceFetchHook(fence)),
  ];
  return () => offs.forEach((off) => off());
}

/** The gate's decision (allow or ask) combined with what a downstream hook answered. */
function combine(d: Decision, down: GateDecision): GateDecision {
  if (down.decision === "deny") return { ...down, by: down.by ?? "hook" };
  if (down.decision === "ask") return d.decision === "ask" && d.by !== "default" ? answer(d) : { ...down, by: down.by ?? "hook" };
  // The hook allows.
  if (d.decision === "allow") return d.by === "default" ? { ...down, by: down.by ?? "hook" } : answer(d);
  if (d.by === "default") return { decision: "allow", reason: down.reason ?? "a hook allowed it", by: down.by ?? "hook" };
  return answer(d);
}

function answer(d: Decision): GateDecision {
  return { decision: d.decision, reason: d.reason, by: d.by };
}

/** The fs.write backstop, exported for tests: throws WriteRefusedError instead of calling next. */
export function fenceWriteHook(opts: PermissionGateOptions) {
  return (e: EventOf<"fs.write">, next: () => Promise<Result<"fs.write">>): Promise<Result<"fs.write">> => {
    const env = opts.env();
    const path = resolve(env.root, e.path);
    if (opts.managedBroken) throw new WriteRefusedError(path, "the managed policy file is malformed (or holds a deny or ask rule deepcode cannot apply)");
    const v = writeVerdict(path, opts.rules(), env);
    if (v?.decision === "deny") throw new WriteRefusedError(path, v.reason);
    return next();
  };
}
