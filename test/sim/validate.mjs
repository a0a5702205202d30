// @ts-check
// Request validation as DeepSeek's Chat Completions endpoint does it (api-docs.deepseek.com and
// the exact error texts quoted in public issue threads, read 2026-11-30). Messages are the API's
// own where known (reasoning_content, tool_choice, orphaned or stray tool messages, Model Not
// Exist); elsewhere they follow its style (serde-like "Failed to deserialize …").
// The Anthropic endpoint translates its body first and runs the same checks (DeepSeek serves
// both protocols from one backend, so the same request fails the same way on either).

/**
 * Every model name the API accepts, what it is served (and cached) as, and whether it thinks
 * unless told `thinking: {type: "disabled"}`. `deepseek-chat` is the legacy non-thinking name.
 * @type {Record<string, { family: string, thinking: boolean }>}
 */
export const MODELS = {
  "deepseek-flash": { family: "deepseek-flash", thinking: true },
  "deepseek-v4-flash": { family: "deepseek-flash", thinking: true },
  "deepseek-chat": { family: "deepseek-flash", thinking: false },
  "deepseek-reasoner": { family: "deepseek-flash", thinking: true },
  "deepseek-v4-pro": { family: "deepseek-v4-pro", thinking: true },
};

/** What GET /models lists: the current names only (aliases are accepted but not listed). */
export const LISTED_MODELS = ["deepseek-flash", "deepseek-v4-pro"];

const ROLES = ["system", "user", "assistant", "tool", "latest_reminder"];
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const REASONING_BACK_MESSAGE = "The `reasoning_content` in the thinking mode must be passed back to the API.";
export const TOOL_CHOICE_MESSAGE = "Thinking mode does not support this tool_choice";
export const ORPHANED_CALL_MESSAGE =
  "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)";
export const STRAY_TOOL_MESSAGE = "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'";
/** DeepSeek checks tool_call ids across the whole history (craft-agents-oss#621/#630 quote it). */
export const duplicateIdMessage = (/** @type {string} */ id, /** @type {number} */ i) => `Duplicate value for 'tool_call_id' of ${id} in message[${i}]`;

/**
 * Whether the request is answered in thinking mode.
 * @param {any} json a request that passed validation
 */
export function thinkingOn(json) {
  const type = json?.thinking?.type;
  if (type === "disabled") return false;
  if (type === "enabled") return true;
  return MODELS[json.model]?.thinking ?? true;
}

/**
 * @param {string} message
 * @param {number} [status]
 * @returns {{ status: number, message: string }}
 */
const fail = (message, status = 400) => ({ status, message });

/** @param {string} what */
const deser = (what) => fail(`Failed to deserialize the JSON body into the target type: ${what}`);

/**
 * Checks a Chat Completions request; null when the API would accept it.
 * @param {any} json the parsed body
 * @param {{ textParts?: boolean }} [opts] textParts: accept arrays of text parts outside assistant messages
 * @returns {{ status: number, message: string } | null}
 */
export function validateChatRequest(json, opts = {}) {
  if (json === null || typeof json !== "object" || Array.isArray(json)) return deser("invalid type: expected a JSON object");
  if (typeof json.model !== "string") return deser("missing field `model`");
  if (!Array.isArray(json.messages)) return deser("missing field `messages`");
  if (!Object.hasOwn(MODELS, json.model)) return fail("Model Not Exist");
  if (json.messages.length === 0) return fail("Invalid request: `messages` must contain at least one message");

  for (let i = 0; i < json.messages.length; i++) {
    const m = json.messages[i];
    if (m === null || typeof m !== "object") return deser(`messages[${i}]: invalid type: expected a message object`);
    if (!ROLES.includes(m.role)) {
      return deser(`messages[${i}]: unknown variant \`${String(m.role)}\`, expected one of ${ROLES.map((r) => `\`${r}\``).join(", ")}`);
    }
    // DeepSeek takes string contents only: an array of parts is "invalid type: sequence,
    // expected a string" (forgecode#2008, cline#230 quote it).
    const contentOk = typeof m.content === "string";
    if (m.role === "assistant") {
      if (!(contentOk || m.content == null)) return deser(`messages[${i}]: invalid type: sequence, expected a string`);
      if (m.content == null && !Array.isArray(m.tool_calls)) return deser(`messages[${i}]: missing field \`content\``);
      if (m.reasoning_content != null && typeof m.reasoning_content !== "string") {
        return deser(`messages[${i}]: invalid type for \`reasoning_content\`, expected a string`);
      }
      if (m.tool_calls != null) {
        if (!Array.isArray(m.tool_calls)) return deser(`messages[${i}]: invalid type for \`tool_calls\`, expected a sequence`);
        for (const [j, tc] of m.tool_calls.entries()) {
          if (typeof tc?.id !== "string") return deser(`messages[${i}].tool_calls[${j}]: missing field \`id\``);
          if (typeof tc.function?.name !== "string") return deser(`messages[${i}].tool_calls[${j}]: missing field \`function.name\``);
          // The rule the API applies to tool names in `tools` (refly#1794 quotes its 400); held
          // to the history too, the stricter reading, so deepcode never relies on it being lax.
          if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tc.function.name)) return fail(`Invalid 'messages[${i}].tool_calls[${j}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`);
          if (typeof tc.function.arguments !== "string") return deser(`messages[${i}].tool_calls[${j}].function.arguments: expected a string`);
          // The API parses the arguments of the history as JSON (Locus#73 quotes the 400).
          const bad = jsonError(tc.function.arguments);
          if (bad) return fail(`Failed to parse the request body as JSON: messages[${i}].tool_calls[${j}].function.arguments: ${bad}`);
        }
      }
    } else {
      if (m.content === undefined) return deser(`messages[${i}]: missing field \`content\``);
      const parts = opts.textParts === true && Array.isArray(m.content) && m.content.every((/** @type {any} */ p) => p?.type === "text" && typeof p.text === "string");
      if (!contentOk && !parts) return deser(`messages[${i}]: invalid type: ${Array.isArray(m.content) ? "sequence" : typeof m.content}, expected a string`);
    }
    if (m.role === "tool" && typeof m.tool_call_id !== "string") return deser(`messages[${i}]: missing field \`tool_call_id\``);
  }

  const duplicate = checkUniqueIds(json.messages);
  if (duplicate) return duplicate;
  const pairing = checkToolPairing(json.messages);
  if (pairing) return pairing;

  if (json.tools != null) {
    if (!Array.isArray(json.tools)) return deser("tools: invalid type: expected a sequence");
    if (json.tools.length > 128) return fail("Invalid request: at most 128 tools are supported");
    for (const [j, t] of json.tools.entries()) {
      const name = t?.function?.name;
      if (typeof name !== "string" || !TOOL_NAME.test(name)) {
        return fail(`Invalid 'tools[${j}].function.name': must match ^[a-zA-Z0-9_-]{1,64}$`);
      }
    }
  }

  if (thinkingOn(json)) {
    const choice = json.tool_choice;
    if (choice === "required" || (choice && typeof choice === "object")) return fail(TOOL_CHOICE_MESSAGE);
    if (Array.isArray(json.tools) && json.tools.length > 0) {
      for (const m of json.messages) {
        if (m.role === "assistant" && typeof m.reasoning_content !== "string") return fail(REASONING_BACK_MESSAGE);
      }
    }
  }
  return null;
}

/**
 * Every assistant tool call is answered by a tool message before the next non-tool message,
 * and every tool message answers a call of the assistant message before it.
 * @param {any[]} messages
 */
function checkToolPairing(messages) {
  /** @type {Set<string>} */
  let pending = new Set();
  for (const m of messages) {
    if (m.role === "tool") {
      if (!pending.delete(m.tool_call_id)) return fail(STRAY_TOOL_MESSAGE);
      continue;
    }
    if (pending.size > 0) return fail(ORPHANED_CALL_MESSAGE);
    pending = new Set(m.role === "assistant" && Array.isArray(m.tool_calls) ? m.tool_calls.map((/** @type {any} */ tc) => tc.id) : []);
  }
  return pending.size > 0 ? fail(ORPHANED_CALL_MESSAGE) : null;
}

/**
 * Why `text` is not JSON, or null when it is.
 * @param {string} text
 */
function jsonError(text) {
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Every tool_call id appears once in the whole history (an empty one counts as a value too).
 * @param {any[]} messages
 */
function checkUniqueIds(messages) {
  const seen = new Set();
  for (const [i, m] of messages.entries()) {
    if (m.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
    for (const tc of m.tool_calls) {
      if (seen.has(tc.id)) return fail(duplicateIdMessage(tc.id, i));
      seen.add(tc.id);
    }
  }
  return null;
}
