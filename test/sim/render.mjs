// @ts-check
// The canonical rendering of a Chat Completions request: what the simulator counts tokens over
// and keys its prefix cache on. It stands in for DeepSeek's chat template, and keeps the
// properties that decide cache hits on the real API:
//   - the leading system message(s) come first, then the tools array, then every other message
//     in order — so a changed tool list invalidates everything after the system prompt;
//   - the tools are `JSON.stringify` of the parsed `tools`, which keeps the client's key order:
//     a client that re-serialises its tool schemas with other key order misses from there on;
//   - an assistant message renders its reasoning_content (when present), content and each tool
//     call's name and arguments string exactly as sent (a re-serialised arguments string misses);
//   - tool_call_id and other bookkeeping fields are not rendered (the model never sees them), so
//     fresh random call ids never cost a cache miss.
// One piece per message (plus one for the tools): pieces are tokenized one by one and memoized.

/**
 * The text of a message's `content`: a string, null, or an array of text parts.
 * @param {unknown} content
 * @returns {string}
 */
export function textOf(content) {
  if (typeof content === "string") return content;
  if (content == null) return "";
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === "string" ? p : p && typeof p.text === "string" ? p.text : "")).join("");
  }
  return JSON.stringify(content);
}

/**
 * One message as the template renders it.
 * @param {any} m a message of the OpenAI shape (validated before it gets here)
 * @returns {string}
 */
export function renderMessage(m) {
  switch (m.role) {
    case "system":
      return `${textOf(m.content)}\n\n`;
    case "user":
      return `<｜User｜>${textOf(m.content)}`;
    case "latest_reminder":
      return `<｜latest_reminder｜>${textOf(m.content)}`;
    case "tool":
      return `<｜tool▁output▁begin｜>${textOf(m.content)}<｜tool▁output▁end｜>`;
    case "assistant": {
      let s = "<｜Assistant｜>";
      if (typeof m.reasoning_content === "string") s += `<think>${m.reasoning_content}</think>`;
      s += textOf(m.content);
      if (Array.isArray(m.tool_calls)) {
        for (const tc of m.tool_calls) {
          const fn = (tc && tc.function) || {};
          const args = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? null);
          s += `<｜tool▁call▁begin｜>${fn.name ?? ""}<｜tool▁sep｜>${args}<｜tool▁call▁end｜>`;
        }
      }
      return `${s}<｜end▁of▁sentence｜>`;
    }
    default:
      return `<｜${String(m.role)}｜>${textOf(m.content)}`;
  }
}

/**
 * The canonical pieces of a request: leading system messages, the tools, the other messages.
 * @param {any} json a Chat Completions request body (parsed)
 * @returns {string[]}
 */
export function renderRequest(json) {
  const messages = Array.isArray(json?.messages) ? json.messages : [];
  /** @type {string[]} */
  const pieces = [];
  let i = 0;
  while (i < messages.length && messages[i]?.role === "system") pieces.push(renderMessage(messages[i++]));
  if (Array.isArray(json?.tools) && json.tools.length > 0) pieces.push(`## Tools\n${JSON.stringify(json.tools)}\n\n`);
  for (; i < messages.length; i++) pieces.push(renderMessage(messages[i]));
  return pieces;
}
