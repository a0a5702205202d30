// The fence on a tool's file reads and HTTP requests (`fs.read`, `http.fetch`), beside the one
// on `fs.write` (gate.ts): every side effect of every tool, built-in or plugin, passes it, so a
// plugin tool that says it only reads cannot open ~/.ssh/id_rsa, or send a request to a host a
// deny rule names, through its ctx.fs / ctx.fetch without anyone being asked.
//
// - fs.read: a Read deny rule refuses. What the Read tool would ask about (a secret, a Read ask
//   rule) is refused unless the calling tool's own check looked at that very file — the built-in
//   Read, Edit and Write name their file in their input, and their question showed it — or an
//   allow rule names it (readVerdict: `Read(~/.ssh/id_rsa)`).
// - http.fetch: a WebFetch deny rule for the host refuses; an ask rule refuses unless the
//   calling tool's check named that URL (a WebFetch-like tool's `url` input) or its host.
// A read or a request made outside any tool call (no callId) gets the same verdicts, with no
// call to cover it. Refusals are DeniedErrors: the chain hands them to the tool, which fails.

import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { DeniedError, type EventOf, type Result } from "../../contract/index.js";
import { readVerdict } from "./checks.js";
import { expandHome } from "./paths.js";
import { EDIT_TOOLS, type Rule } from "./rules.js";
import type { GateEnv } from "./paths.js";
import { servedUrl } from "./containment/served.js";

export class ReadRefusedError extends DeniedError {
  constructor(readonly path: string, reason: string) {
    super(`read refused: ${reason}`, "permissions");
    this.name = "ReadRefusedError";
  }
}

export class FetchRefusedError extends DeniedError {
  constructor(readonly url: string, reason: string) {
    super(`request refused: ${reason}`, "permissions");
    this.name = "FetchRefusedError";
  }
}

const MAX_CALLS = 2000;

/** What each call's check looked at: the file a Read/Edit/Write names, the URL a tool names —
 *  and whether a person said yes to that very call (`approve`). */
export class CallCover {
  private readonly calls = new Map<string, { paths: string[]; url?: string; approved?: boolean }>();

  record(e: EventOf<"tool.check">, env: GateEnv): void {
    const str = (v: unknown): string => (typeof v === "string" ? v : "");
    const paths: string[] = [];
    if (e.tool === "Read" || EDIT_TOOLS.has(e.tool)) {
      const p = str(e.input.file_path ?? e.input.notebook_path);
      if (p) paths.push(resolve(env.root, expandHome(p, env.home)));
    }
    const url = str(e.input.url) || undefined;
    if (paths.length === 0 && !url) return;
    this.calls.set(e.callId, { paths, url });
    if (this.calls.size > MAX_CALLS) this.calls.delete(this.calls.keys().next().value as string);
  }

  coversPath(callId: string | undefined, path: string): boolean {
    const c = callId === undefined ? undefined : this.calls.get(callId);
    if (!c) return false;
    const real = realOf(path);
    return c.paths.some((p) => p === path || (real !== null && realOf(p) === real));
  }

  coversUrl(callId: string | undefined, url: string): boolean {
    const c = callId === undefined ? undefined : this.calls.get(callId);
    return c?.url !== undefined && sameUrl(c.url, url);
  }

  /** A person answered the question about this call with a yes (`y` or `a`). */
  approve(callId: string | undefined): void {
    const c = callId === undefined ? undefined : this.calls.get(callId);
    if (c) c.approved = true;
  }

  /** The call's question named this URL (or its host: a redirect's hop) and a person said yes. */
  approvedUrl(callId: string | undefined, url: string): boolean {
    const c = callId === undefined ? undefined : this.calls.get(callId);
    return c?.approved === true && this.coversUrl(callId, url);
  }
}

/**
 * Whether a request may reach `host` on a loopback, link-local or private address (the core's
 * http.fetch asks this: FetchPolicy.privateHostAllowed). One route, read live at each request:
 *   - an allow rule of any layer names that exact host — the settings' or the session's, so an
 *     `a` answer (`WebFetch(domain:127.0.0.1)`) counts from the next request on;
 *   - the person said `y` to the very call that makes this request, whose question named its URL;
 *   - it is the agent's own server: a background job's port the sandbox forwards (served.ts).
 */
export function privateFetchAllowed(o: { rules: () => readonly Rule[]; cover: CallCover; servedPorts: () => readonly number[] | undefined }, host: string, req: { url: string; callId?: string }): boolean {
  return allowRuleNamesHost(o.rules(), host) || o.cover.approvedUrl(req.callId, req.url) || servedUrl(req.url, o.servedPorts());
}

function realOf(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** The request goes where the question said: the same URL, or a redirect's next hop on the
 *  same host (ask rules are per host; WebFetch follows a redirect to another host only after a
 *  question of its own). */
function sameUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.href === y.href || (x.protocol === y.protocol && x.host === y.host);
  } catch {
    return a === b;
  }
}

/** Whether an allow rule names this exact host (`WebFetch(domain:127.0.0.1)`): only then may a
 *  request reach it on a loopback, link-local or private address (the core's http.fetch asks
 *  this). A parent domain's rule does not count: `WebFetch(domain:corp.example)` lets
 *  `wiki.corp.example` be asked about, not reached inside the network; name it to allow that. */
export function allowRuleNamesHost(rules: readonly Rule[], host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return rules.some((r) => r.kind === "allow" && r.family === "webfetch" && r.match.type === "domain" && r.match.domain === h);
}

export interface FenceOptions {
  rules: () => readonly Rule[];
  env: () => GateEnv;
  managedBroken: boolean;
  cover: CallCover;
}

export function fenceReadHook(o: FenceOptions) {
  return (e: EventOf<"fs.read">, next: () => Promise<Result<"fs.read">>): Promise<Result<"fs.read">> => {
    const env = o.env();
    const path = resolve(env.root, e.path);
    if (o.managedBroken) throw new ReadRefusedError(path, "the managed policy file is malformed (or holds a deny or ask rule deepcode cannot apply)");
    const v = readVerdict(path, o.rules(), env, { sessionOutput: env.sessionOutputs !== undefined && path.startsWith(env.sessionOutputs) });
    if (v?.decision === "deny") throw new ReadRefusedError(path, v.reason);
    if (v?.decision === "ask" && !o.cover.coversPath(e.callId, path)) {
      throw new ReadRefusedError(path, `${v.reason}; no question named this file for the tool that reads it`);
    }
    return next();
  };
}

export function fenceFetchHook(o: FenceOptions) {
  return (e: EventOf<"http.fetch">, next: () => Promise<Result<"http.fetch">>): Promise<Result<"http.fetch">> => {
    if (o.managedBroken) throw new FetchRefusedError(e.url, "the managed policy file is malformed (or holds a deny or ask rule deepcode cannot apply)");
    let host: string | null;
    try {
      host = new URL(e.url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
    } catch {
      throw new FetchRefusedError(e.url, "not a URL");
    }
    const rules = o.rules().filter((r) => r.family === "webfetch" && r.match.type === "domain");
    const hit = (r: Rule): boolean => r.match.type === "domain" && (host === r.match.domain || host!.endsWith(`.${r.match.domain}`));
    const deny = rules.find((r) => r.kind === "deny" && hit(r));
    if (deny) throw new FetchRefusedError(e.url, `${deny.text} (${deny.layer}) denies ${host}`);
    const ask = rules.find((r) => r.kind === "ask" && hit(r));
    if (ask && !o.cover.coversUrl(e.callId, e.url)) throw new FetchRefusedError(e.url, `${ask.text} (${ask.layer}) asks before ${host} is reached, and no question named this request`);
    return next();
  };
}
