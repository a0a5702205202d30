// The reply as it enters the append-only log. Nothing logged is rewritten later, so what the
// API must accept back — and what each call will be answered with — is decided here, once.

import type { AssistantMessage, JsonObject, JsonValue, ToolCall } from "../../contract/index.js";
import { canonicalJson } from "../../lib/json.js";
import { matchingEnd } from "../repair/json-calls.js";
import { freshCallId } from "../session/ids.js";
import { parseCall, type CallEnv, type ParsedInput, type ReadyCall } from "./tools.js";

const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** What a call without a usable tool name is logged as (no tool has this name). */
export const NAMELESS = "missing_tool_name";

export interface PrepareOptions {
  /** Keep reasoning_content (as a string) in the logged message: the model needs it back. */
  keepReasoning: boolean;
  /** Ids already in the log: a reply reusing one gets a fresh id. */
  taken: Set<string>;
  /** The reply ended early: its calls will be answered as interrupted, not parsed. */
  incomplete: boolean;
  /** Something the person should be told (a call without a name, a re-issued id). */
  note(code: string, message: string): void;
  /** The model's own arguments of a call whose log entry holds other JSON: for the transcript. */
  keepRaw(callId: string, raw: string): void;
}

/** The assistant message as it enters the append-only log, and each call ready to run. What is
 *  logged is what the API accepts back, decided now because nothing logged is rewritten later:
 *  - an empty id, or one already used in the log or this reply, is re-issued (DeepSeek refuses
 *    a history with duplicate ids; the session file then holds the new id, so a resume agrees);
 *  - arguments that parse are kept byte for byte (the cache); otherwise the log holds what runs
 *    — the repaired JSON a `tool.input` hook produced — or `{}`, with the raw text quoted in the
 *    call's error result; the raw text is kept whole in the session file (`raw-arguments`);
 *  - a call without a tool name is kept and answered with an error naming the problem, never
 *    dropped: everything the model asked for gets an answer. */
export async function prepareReply(m: AssistantMessage, env: CallEnv, o: PrepareOptions): Promise<{ message: AssistantMessage; ready: ReadyCall[] }> {
  const ready: ReadyCall[] = [];
  for (const c of m.tool_calls ?? []) {
    let id = typeof c.id === "string" ? c.id : "";
    if (id === "" || o.taken.has(id)) {
      const fresh = freshCallId("call_dc");
      o.note("call-id", `the model sent a tool call ${id === "" ? "without an id" : `reusing the id ${id}`}; it was given the id ${fresh}`);
      id = fresh;
    }
    o.taken.add(id);
    const name = typeof c.function?.name === "string" ? c.function.name.trim() : "";
    const raw = typeof c.function?.arguments === "string" ? c.function.arguments : "";
    const call: ToolCall = { id, type: "function", function: { name, arguments: raw } };
    let parsed: ParsedInput;
    if (o.incomplete) parsed = { error: "Interrupted: this call did not run." };
    else if (name === "") {
      parsed = { error: `This tool call has no tool name, so nothing ran. Its arguments were: ${raw.slice(0, 200) || "(none)"}. Call one of the available tools by its name.` };
      o.note("call-without-name", "the model sent a tool call without a tool name; it was answered with an error and nothing ran");
    } else parsed = await parseCall(call, env);
    const logged = isJson(raw) ? raw : "input" in parsed ? repairedText(raw, parsed.input) : "{}";
    if (logged !== raw && raw !== "") o.keepRaw(id, raw);
    // A name the API would refuse in the history (empty, or not `[a-zA-Z0-9_-]{1,64}`) is logged
    // as a placeholder; the call's error result says what the model sent.
    const loggedName = VALID_NAME.test(name) ? name : NAMELESS;
    ready.push({ call: { ...call, function: { name: loggedName, arguments: logged } }, parsed });
  }
  const message: AssistantMessage = { role: "assistant", content: m.content ?? (ready.length ? null : "") };
  if (o.keepReasoning) message.reasoning_content = m.reasoning_content ?? "";
  if (o.keepReasoning && m.reasoning_signature !== undefined) message.reasoning_signature = m.reasoning_signature;
  if (ready.length) message.tool_calls = ready.map((r) => r.call);
  return { message, ready };
}

/** The repaired arguments as text. When the model's own bytes up to the end of its first
 *  object already say it (garbage after the object, a fence around it), those bytes are kept:
 *  the cache then matches the reply as sent up to there. Otherwise the input, serialised. */
function repairedText(raw: string, input: JsonObject): string {
  const start = raw.indexOf("{");
  const end = start < 0 ? -1 : matchingEnd(raw, start);
  if (end > 0) {
    const head = raw.slice(start, end);
    try {
      if (canonicalJson(JSON.parse(head) as JsonValue) === canonicalJson(input)) return head;
    } catch {
      // not JSON on its own: the serialised input is logged instead
    }
  }
  return JSON.stringify(input);
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false; // not JSON: the caller logs what ran instead
  }
}

