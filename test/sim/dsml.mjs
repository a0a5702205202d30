// @ts-check
// Builders for the malformed model output the repair tests need: tool calls written as text.
// DeepSeek models sometimes emit their DSML tool-call markup in `content` (finish_reason stop,
// no tool_calls), with a full-width bar `｜` or an ASCII `|`, wrapped in `tool_calls` or
// `function_calls`; `string="true"` marks a raw string value, `string="false"` a JSON value.

/**
 * DSML markup for `calls`.
 * @param {{ name: string, params?: Record<string, unknown> }[]} calls
 * @param {{ ascii?: boolean, wrapper?: "tool_calls" | "function_calls", newlines?: boolean }} [options]
 * @returns {string}
 */
export function dsml(calls, options = {}) {
  const bar = options.ascii ? "|" : "｜";
  const tag = `${bar}DSML${bar}`;
  const wrapper = options.wrapper ?? "tool_calls";
  const nl = options.newlines ? "\n" : "";
  let s = `<${tag}${wrapper}>${nl}`;
  for (const call of calls) {
    s += `<${tag}invoke name="${call.name}">${nl}`;
    for (const [key, value] of Object.entries(call.params ?? {})) {
      const raw = typeof value === "string";
      s += `<${tag}parameter name="${key}" string="${raw}">${raw ? value : JSON.stringify(value)}</${tag}parameter>${nl}`;
    }
    s += `</${tag}invoke>${nl}`;
  }
  return `${s}</${tag}${wrapper}>`;
}

/**
 * Tool calls written as JSON text, the way models sometimes put them in reasoning_content.
 * @param {{ name: string, arguments?: Record<string, unknown> }[]} calls
 * @returns {string}
 */
export function jsonToolCallText(calls) {
  return calls.map((c) => JSON.stringify({ name: c.name, arguments: c.arguments ?? {} })).join("\n");
}
