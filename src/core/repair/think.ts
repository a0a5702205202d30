// Reasoning written into the answer. Some servers and some DeepSeek deployments send the
// reasoning in `content`, closed by `</think>` (with or without an opening `<think>`), and an
// empty or missing `reasoning_content` (public report: OpenRouterTeam/ai-sdk-provider#163). The
// text up to `</think>` is reasoning: it moves to `reasoning_content`, so it is neither the
// answer the person reads nor content the model is re-seeded with as if it had said it. A
// `</think>` inside a code fence or an inline code span is text, not a boundary.

import type { ModelResponse } from "../../contract/index.js";

const CLOSE = /<\/think\s*>/;

/** The reply with leading reasoning moved out of its content, or null when there is none. */
export function moveThinking(response: ModelResponse): ModelResponse | null {
  const content = response.message.content ?? "";
  const m = CLOSE.exec(content);
  if (!m) return null;
  const before = content.slice(0, m.index);
  if (quoted(before)) return null;
  const thought = before.replace(/^\s*<think\s*>/, "").trim();
  const rest = content.slice(m.index + m[0].length).replace(/^\s+/, "");
  const earlier = response.message.reasoning_content ?? "";
  const reasoning = [earlier, thought].filter((t) => t.trim() !== "").join("\n\n");
  const message = { ...response.message, content: rest, reasoning_content: reasoning };
  return { ...response, message };
}

function quoted(before: string): boolean {
  const fences = (before.match(/^\s{0,3}(```|~~~)/gm) ?? []).length;
  if (fences % 2 === 1) return true;
  const line = before.slice(before.lastIndexOf("\n") + 1);
  return ((line.match(/`/g) ?? []).length % 2) === 1;
}
