// `deepcode setup`: store the DeepSeek API key in <home>/credentials (mode 0600), then check it
// with one cheap authenticated request and say whether the API accepted it.
//
// - On a terminal the key is asked for without echo (readline writing to a muted stream) and a
//   malformed answer is asked again (three tries). From a pipe (`echo sk-… | deepcode setup`)
//   the first non-empty line of stdin is the key; a malformed one is refused (exit 1).
// - Malformed means it cannot be a key at all (empty, spaces, characters no HTTP header
//   carries). A key that merely does not look like DeepSeek's (`sk-` and about 35 characters:
//   a simulator's `sk-sim`, another vendor's key) is stored with a warning; `--force` stores it
//   without one.
// - The key is never printed, not even in part. Messages name the file it went to.
// - The key is checked before it is stored: one the API rejects (401/403) is not stored, and a
//   key stored earlier stays as it was (`--force` stores it anyway). One that cannot be checked
//   (the network is down, the API errs) is stored, with a note.
// - Exit 0: stored (and accepted, or not checkable); 1: refused (malformed, or rejected).

import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { createProvider } from "../providers/index.js";
import { DEFAULT_BASE_URL } from "./assemble.js";
import { saveApiKey } from "./credentials.js";
import { keyFromEnv } from "./key-env.js";

export interface SetupOptions {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** The check's time limit (default 10 s). */
  timeoutMs?: number;
  /** `--force`: no warning for a key that does not look like DeepSeek's. */
  force?: boolean;
}

const TRIES = 3;

export async function runSetup(home: string, o: { force?: boolean } = {}): Promise<number> {
  return setup(home, { input: process.stdin, output: process.stdout, env: process.env, force: o.force });
}

export async function setup(home: string, o: SetupOptions): Promise<number> {
  const say = (s: string) => o.output.write(`${s}\n`);
  const tty = o.input.isTTY === true;
  let key: string | undefined;
  for (let attempt = 1; attempt <= (tty ? TRIES : 1); attempt++) {
    const answer = tty ? await askHidden(o.input, o.output, "DeepSeek API key (input hidden): ") : await firstLine(o.input);
    if (answer === undefined) {
      say(tty ? "Cancelled; nothing was stored." : "No key on stdin; nothing was stored. Usage: echo \"$KEY\" | deepcode setup");
      return 1;
    }
    const candidate = normaliseKey(answer);
    const problem = keyProblem(candidate);
    if (!problem) {
      key = candidate;
      break;
    }
    say(`That does not look like an API key: ${problem}.${tty && attempt < TRIES ? " Try again." : " Nothing was stored."}`);
  }
  if (!key) return 1;

  const baseUrl = o.env.DEEPSEEK_BASE_URL || DEFAULT_BASE_URL;
  let result: { ok: boolean; status?: number; message: string } | undefined;
  let failure: string | undefined;
  try {
    const provider = createProvider({ baseUrl, apiKey: key, keySource: "the key being set up", env: o.env });
    result = await provider.check(AbortSignal.timeout(o.timeoutMs ?? 10_000));
  } catch (err) {
    failure = scrub(err instanceof Error ? err.message : String(err), key);
  }
  const message = result ? scrub(result.message, key) : "";
  const rejected = result !== undefined && !result.ok && (result.status === 401 || result.status === 403);
  if (rejected && !o.force) {
    say(`The API did not accept the key: ${message}`);
    say("Nothing was stored (an earlier key stays as it was); run `deepcode setup` again with a valid key (https://platform.deepseek.com/api_keys), or --force to store it anyway.");
    return 1;
  }

  const file = saveApiKey(home, key);
  say(`Stored the key in ${file} (mode 0600).`);
  const odd = o.force ? undefined : keyWarning(key);
  if (odd) say(`Warning: ${odd}; stored anyway (fine for a simulator or another OpenAI-compatible vendor; --force stores without this warning).`);
  if (keyFromEnv(o.env, "DEEPSEEK_API_KEY")?.trim()) say("Note: DEEPSEEK_API_KEY is set in this environment and takes precedence over the stored key.");
  if (failure !== undefined || !result) {
    say(`Could not check the key: ${failure ?? "no answer"}`);
    return 0;
  }
  if (result.ok) {
    say(`Checked against ${baseUrl}: ${message}.`);
    return 0;
  }
  if (result.status === undefined) {
    say(`Could not reach ${baseUrl} to check the key (${message}). It is stored; run \`deepcode doctor\` to check again.`);
    return 0;
  }
  say(`The API did not accept the key: ${message}${rejected ? " (stored anyway: --force)" : ""}`);
  return rejected ? 1 : 0;
}

/** A pasted `DEEPSEEK_API_KEY=sk-…` or `"sk-…"` is taken for the key inside it. */
export function normaliseKey(s: string): string {
  return s
    .trim()
    .replace(/^(?:export\s+)?DEEPSEEK_API_KEY\s*=\s*/, "")
    .replace(/^(["'])(.*)\1$/, "$2")
    .trim();
}

/** Why a string cannot be an API key, or undefined when it could be one. */
export function keyProblem(key: string): string | undefined {
  if (key === "") return "it is empty";
  if (/\s/.test(key)) return "it contains spaces or line breaks";
  if (!/^[\x21-\x7e]+$/.test(key)) return "it contains characters an API key never has";
  if (key.length > 4096) return "it is too long";
  return undefined;
}

/** Why a usable string does not look like a DeepSeek key (`sk-` and 32 or so more characters). */
export function keyWarning(key: string): string | undefined {
  if (!key.startsWith("sk-")) return "this does not look like a DeepSeek key (they start with sk-)";
  if (key.length < 20) return `this key is shorter than DeepSeek's (${key.length} characters; theirs have about 35)`;
  return undefined;
}

/** One line read from a terminal without echo; undefined on Ctrl-C or Ctrl-D. */
function askHidden(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, prompt: string): Promise<string | undefined> {
  output.write(prompt);
  // readline echoes what is typed to its output: give it one that drops everything.
  const muted = new Writable({ write: (_chunk, _enc, done) => done() });
  const rl = createInterface({ input, output: muted, terminal: true, historySize: 0 });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (v: string | undefined) => {
      if (settled) return;
      settled = true;
      rl.close();
      output.write("\n");
      resolve(v);
    };
    rl.once("line", (line) => finish(line));
    rl.once("SIGINT", () => finish(undefined));
    rl.once("close", () => finish(undefined));
  });
}

/** The first non-empty line of a piped stdin (or undefined at its end without one). */
function firstLine(input: NodeJS.ReadableStream): Promise<string | undefined> {
  const rl = createInterface({ input, terminal: false });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (v: string | undefined) => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(v);
    };
    rl.on("line", (line) => {
      if (line.trim()) finish(line);
    });
    rl.once("close", () => finish(undefined));
  });
}

function scrub(text: string, key: string): string {
  return text.split(key).join("[key]");
}
