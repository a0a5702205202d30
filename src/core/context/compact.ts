// Compaction: the same prefix + one digest message + the recent tail (the last turns
// verbatim). The digest is asked of the model with the current request plus one instruction,
// so the digest request itself is a cache hit. deepcode adds what must never be lost, taken
// from the log itself rather than trusted to the summary: the file paths touched and the
// user's own words. A compaction that fails changes nothing; the caller reports it.

import type { ChatMessage, ChatRequest, CompactionResult, ModelResponse } from "../../contract/index.js";
import type { CacheFirstContext, BuildParams } from "./context.js";
import { boundAll, isContextLimit } from "./context-limit.js";

export interface CompactDeps {
  context: CacheFirstContext;
  params: BuildParams;
  /** Send one request (the provider through the chain). */
  request(req: ChatRequest): Promise<ModelResponse>;
  keepTurns: number;
  instructions?: string;
}

const DIGEST_PROMPT = `[deepcode] The conversation is about to be compacted to save context. Write a digest that lets you continue the work without the earlier messages:
- the task and the user's goals, in the user's own words where they matter;
- decisions made and why;
- files read, created or changed, and what changed in each;
- commands run and what they showed (failures especially);
- what is done, what is open, and the next step — and for work in progress, the exact lines (from files or outputs) the next step needs, quoted, since the tool results will be gone.
Be specific (paths, names, numbers). Do not call tools. Reply with the digest only.`;

export async function compactContext(d: CompactDeps): Promise<CompactionResult & { messages?: ChatMessage[] }> {
  const before = d.context.ledger().nextPromptTokens;
  const log = d.context.messages;
  const starts = turnStarts(log);
  const keepFrom = starts.length > d.keepTurns ? starts[starts.length - d.keepTurns] : 0;
  if (keepFrom <= 0) return { ok: false, tokensBefore: before, tokensAfter: before, error: "nothing to compact yet (too few turns)" };

  const request = d.context.peek(d.params);
  const instruction = d.instructions ? `${DIGEST_PROMPT}\nAlso: ${d.instructions}` : DIGEST_PROMPT;
  const digestRequest: ChatRequest = { ...request, messages: [...request.messages, { role: "user", content: instruction }], tool_choice: "none" };
  let digest: string;
  try {
    const response = await d.request(digestRequest).catch(async (err: unknown) => {
      // The history no longer fits the window: the digest is asked of it with every large
      // message bounded, never the same too-long request again.
      const bounded = isContextLimit(err instanceof Error ? err.message : String(err)) ? boundAll(request.messages) : null;
      if (!bounded) throw err;
      return d.request({ ...digestRequest, messages: [...bounded.messages, { role: "user", content: instruction }] });
    });
    digest = (response.message.content ?? "").trim();
    if (response.incomplete) throw new Error(`the digest reply ended early (${response.incomplete.reason})`);
  } catch (err) {
    return { ok: false, tokensBefore: before, tokensAfter: before, error: err instanceof Error ? err.message : String(err) };
  }
  if (!digest) return { ok: false, tokensBefore: before, tokensAfter: before, error: "the model returned an empty digest" };

  const compacted = log.slice(0, keepFrom);
  const text = [
    "[deepcode] Digest of the earlier conversation (compacted; the most recent turns follow verbatim).",
    "",
    digest,
    facts("Files touched", filesTouched(compacted)),
    facts("The user's own words, in order", userWords(compacted)),
  ]
    .filter((s) => s !== "")
    .join("\n");
  const messages: ChatMessage[] = [{ role: "user", content: text }, ...log.slice(keepFrom)];
  // A digest longer than what it replaces would make every later request dearer: keep the log.
  const estimate = d.context.estimateWith(messages);
  if (estimate >= before) {
    return { ok: false, tokensBefore: before, tokensAfter: before, error: `the digest would not make the context smaller (${before} tokens now, about ${estimate} after), so it was not applied` };
  }
  d.context.startEpoch(messages, "compaction");
  const after = d.context.ledger().nextPromptTokens;
  return { ok: true, tokensBefore: before, tokensAfter: after, messages };
}

/** Indexes where a user turn begins: its reminder, notes or prompt after the previous turn ended. */
export function turnStarts(log: readonly ChatMessage[]): number[] {
  const starts: number[] = [];
  for (let i = 0; i < log.length; i++) {
    const m = log[i];
    if (m.role !== "user" && m.role !== "latest_reminder") continue;
    const prev = log[i - 1];
    const endOfTurn = !prev || (prev.role === "assistant" && !prev.tool_calls?.length);
    if (endOfTurn && !isDeepcodeNote(m)) starts.push(i);
  }
  return starts;
}

/** deepcode's own nudges inside a turn (continue after a cut, after an empty reply). */
function isDeepcodeNote(m: ChatMessage): boolean {
  return m.role === "user" && m.content.startsWith("[deepcode] Your");
}

function filesTouched(log: readonly ChatMessage[]): string[] {
  const files = new Set<string>();
  for (const m of log) {
    if (m.role !== "assistant") continue;
    for (const c of m.tool_calls ?? []) {
      try {
        const args = JSON.parse(c.function.arguments) as Record<string, unknown>;
        const p = args.file_path ?? args.path;
        if (typeof p === "string") files.add(`${p} (${c.function.name})`);
      } catch {
        continue; // unparseable arguments name no file
      }
    }
  }
  return [...files];
}

function userWords(log: readonly ChatMessage[]): string[] {
  return log
    .filter((m): m is Extract<ChatMessage, { role: "user" }> => m.role === "user" && !m.content.startsWith("[deepcode]"))
    .map((m) => (m.content.length > 2000 ? `${m.content.slice(0, 2000)} […]` : m.content));
}

function facts(title: string, items: string[]): string {
  return items.length ? `\n${title}:\n${items.map((i) => `- ${i}`).join("\n")}` : "";
}
