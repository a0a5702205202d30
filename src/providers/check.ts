// `deepcode doctor`'s probe: one cheap authenticated GET. DeepSeek answers GET /user/balance
// ({is_available, balance_infos: [{currency, total_balance, …}]}, api-docs.deepseek.com "Get
// User Balance", checked 2026-11-30); other OpenAI-compatible vendors GET /models; other
// Anthropic-protocol vendors GET /v1/models. It never throws: every outcome is a result.

import { request as httpRequest } from "node:http";
import type { Socket } from "node:net";
import { openSocket } from "./connect.js";
import type { ConnectOptions, Target } from "./connect.js";
import { AttemptFailure, apiMessageOf, networkFailure, redact, statusFailure } from "./errors.js";
import { ANTHROPIC_VERSION } from "./anthropic.js";
import { isObject } from "../lib/json.js";
import type { CheckResult } from "./types.js";

const CHECK_TIMEOUT_MS = 20_000;

export interface CheckInput {
  base: URL;
  basePath: string;
  target: Target;
  connect: ConnectOptions;
  protocol: "openai" | "anthropic";
  apiKey: string;
  keySource: string;
  signal?: AbortSignal;
}

export async function runCheck(c: CheckInput): Promise<CheckResult> {
  const bearer = { authorization: `Bearer ${c.apiKey}` };
  try {
    if (c.protocol === "anthropic" && !c.basePath.endsWith("/anthropic")) {
      const r = await get(c, `${c.basePath}/v1/models`, { "x-api-key": c.apiKey, "anthropic-version": ANTHROPIC_VERSION });
      return judge(c, r, "models");
    }
    // DeepSeek's Anthropic endpoint shares the key and the account with its OpenAI one.
    const root = c.protocol === "anthropic" ? c.basePath.slice(0, -"/anthropic".length) : c.basePath;
    const r = await get(c, `${root}/user/balance`, bearer);
    if (r.status !== 404) return judge(c, r, "balance");
    return judge(c, await get(c, `${root}/models`, bearer), "models");
  } catch (err) {
    const f = err instanceof AttemptFailure ? err : networkFailure(err, c.target.host);
    return { ok: false, message: redact(f.message, c.apiKey) };
  }
}

interface Got {
  status: number;
  text: string;
  path: string;
}

function judge(c: CheckInput, r: Got, kind: "balance" | "models"): CheckResult {
  const who = `key from ${c.keySource}`;
  if (r.status >= 200 && r.status < 300) {
    let json: unknown;
    try {
      json = JSON.parse(r.text);
    } catch {
      // A 2xx that is not JSON still proves the key was accepted.
    }
    if (kind === "models") {
      const n = isObject(json) && Array.isArray(json.data) ? json.data.length : undefined;
      return { ok: true, status: r.status, message: `${who} accepted${n === undefined ? "" : `; ${n} models available`}` };
    }
    const available = isObject(json) ? json.is_available !== false : true;
    const infos = isObject(json) && Array.isArray(json.balance_infos) ? json.balance_infos : [];
    const balance = infos
      .filter(isObject)
      .map((b) => `${String(b.total_balance)} ${String(b.currency)}`)
      .join(", ");
    if (!available) {
      return { ok: false, status: r.status, message: `${who} accepted, but the balance is exhausted: top up your DeepSeek account` };
    }
    return { ok: true, status: r.status, message: `${who} accepted${balance ? `; balance ${balance}` : ""}` };
  }
  const msg = apiMessageOf(r.text);
  const f = statusFailure({
    status: r.status,
    apiMessage: msg === undefined ? undefined : redact(msg, c.apiKey),
    keySource: c.keySource,
    retryAfterMs: undefined,
    url: `${c.base.origin}${r.path}`,
  });
  return { ok: false, status: r.status, message: redact(f.message, c.apiKey) };
}

async function get(c: CheckInput, path: string, headers: Record<string, string>): Promise<Got> {
  const ctl = new AbortController();
  const timer = setTimeout(
    () => ctl.abort(new AttemptFailure("timeout", `no answer from ${c.target.host} within ${CHECK_TIMEOUT_MS / 1000} s`, false)),
    CHECK_TIMEOUT_MS,
  );
  const onAbort = () => ctl.abort(new AttemptFailure("aborted", "the check was cancelled", false));
  if (c.signal?.aborted) onAbort();
  c.signal?.addEventListener("abort", onAbort, { once: true });
  let socket: Socket | undefined;
  try {
    socket = await openSocket(c.target, c.connect, ctl.signal);
    const s = socket;
    return await new Promise<Got>((resolve, reject) => {
      const fail = () => reject(ctl.signal.reason);
      if (ctl.signal.aborted) return fail();
      ctl.signal.addEventListener("abort", fail, { once: true });
      const req = httpRequest({
        method: "GET",
        host: c.target.host,
        port: c.target.port,
        path,
        headers: { host: c.target.url.host, accept: "application/json", "user-agent": "deepcode", ...headers },
        createConnection: () => s,
      });
      req.on("error", (err) => reject(networkFailure(err, c.target.host)));
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (b: Buffer) => chunks.push(b));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), path }));
        res.on("error", (err) => reject(networkFailure(err, c.target.host)));
      });
      req.end();
    });
  } catch (err) {
    throw ctl.signal.aborted ? ctl.signal.reason : err;
  } finally {
    clearTimeout(timer);
    c.signal?.removeEventListener("abort", onAbort);
    socket?.destroy();
  }
}
