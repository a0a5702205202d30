// The HTTP requests of an OAuth sign-in: metadata documents (GET, JSON), registration (POST,
// JSON) and the token endpoint (POST, form). They go through the same `exchange` as the MCP
// transports, so the host's connector (its proxy settings) applies; redirects are not followed
// (a metadata document that moved is not found, as RFC 8414 and RFC 9728 expect).

import { contentType, exchange, readBody, type Connector } from "../http.js";
import { isObject } from "../../../src/lib/json.js";
import type { JsonValue } from "../../../src/contract/index.js";

export type JsonDoc = { [k: string]: JsonValue };

export interface Web {
  connect?: Connector;
  signal: AbortSignal;
}

export interface WebAnswer {
  status: number;
  json?: JsonDoc;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

const MAX_DOC = 256 * 1024;

async function send(w: Web, method: "GET" | "POST", url: URL, headers: Record<string, string>, body?: string): Promise<WebAnswer> {
  const res = await exchange({ method, url, headers: { accept: "application/json", ...headers }, body, signal: w.signal, connect: w.connect });
  const text = await readBody(res, MAX_DOC);
  const status = res.statusCode ?? 0;
  let json: JsonDoc | undefined;
  if (contentType(res).includes("json") || /^\s*\{/.test(text)) {
    try {
      const v = JSON.parse(text) as JsonValue;
      if (isObject(v)) json = v;
    } catch {
      json = undefined; // not JSON after all: callers read `text`
    }
  }
  return { status, json, text, headers: res.headers };
}

export function getJson(w: Web, url: URL, headers: Record<string, string> = {}): Promise<WebAnswer> {
  return send(w, "GET", url, headers);
}

export function postJson(w: Web, url: URL, body: JsonDoc): Promise<WebAnswer> {
  return send(w, "POST", url, { "content-type": "application/json" }, JSON.stringify(body));
}

export function postForm(w: Web, url: URL, form: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<WebAnswer> {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) if (v !== undefined) p.set(k, v);
  return send(w, "POST", url, { "content-type": "application/x-www-form-urlencoded", ...headers }, p.toString());
}

/** An OAuth error answer, for the person: `invalid_grant (the code expired)`. */
export function oauthError(a: WebAnswer, what: string): Error {
  const e = a.json && typeof a.json.error === "string" ? a.json.error : "";
  const d = a.json && typeof a.json.error_description === "string" ? a.json.error_description : "";
  const detail = e ? `${e}${d ? ` (${d.slice(0, 200)})` : ""}` : a.text.trim().slice(0, 200);
  return new Error(`${what}: the server answered ${a.status}${detail ? `: ${detail}` : ""}`);
}
