// `deepcode -p`: one prompt, non-interactively. The answer goes to stdout (text, one JSON
// object, or one JSON event per line); progress and warnings go to stderr. Nobody can answer a
// permission prompt here, so an ask is a deny — and the model is told why.
// Exit: 0 completed, 1 error (or any other stop), 130 interrupted.

import type { StopReason, StreamEvent, Usage } from "../contract/index.js";
import { Engine } from "../core/engine/engine.js";
import type { App } from "./assemble.js";
import { progressLine } from "./render/progress.js";
import { registerMentions } from "./mentions.js";

export type OutputFormat = "text" | "json" | "stream-json";

export interface PrintOptions {
  prompt: string;
  format: OutputFormat;
  continue?: boolean;
  resume?: string;
}

export interface ResultObject {
  type: "result";
  subtype: string;
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
  stop_reason: StopReason;
  duration_ms: number;
  total_cost_usd: number;
  usage: { prompt_tokens: number; completion_tokens: number; prompt_cache_hit_tokens: number; prompt_cache_miss_tokens: number; reasoning_tokens: number };
  error?: string;
}

export async function runPrint(app: App, o: PrintOptions, out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  registerMentions(app.chain, app.root);
  const engine = await openSession(app, o, err);
  app.engine = engine;
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.on("SIGINT", onSigint);
  const started = Date.now();
  let final: Extract<StreamEvent, { type: "turn.complete" }> | undefined;
  try {
    for await (const ev of engine.submit(o.prompt, { signal: controller.signal })) {
      if (o.format === "stream-json") out.write(`${JSON.stringify(ev)}\n`);
      else {
        const line = progressLine(ev, app.root);
        if (line) err.write(`${line}\n`);
      }
      if (ev.type === "turn.complete") final = ev;
    }
  } finally {
    process.off("SIGINT", onSigint);
    await engine.close(controller.signal.aborted ? "interrupted" : "exit");
    await app.cost?.flush(); // every usage line on disk before the process ends
  }
  if (!final) throw new Error("the turn ended without turn.complete (a bug)");
  const result = resultObject(final, engine.sessionId, Date.now() - started);
  if (o.format === "text") {
    if (final.text) out.write(final.text.endsWith("\n") ? final.text : `${final.text}\n`);
    if (result.is_error) err.write(`deepcode: ${final.stopReason}${final.error ? `: ${final.error}` : ""}\n`);
  } else out.write(`${JSON.stringify(result)}\n`);
  return final.stopReason === "completed" ? 0 : final.stopReason === "interrupted" ? 130 : 1;
}

async function openSession(app: App, o: PrintOptions, err: NodeJS.WritableStream): Promise<Engine> {
  const opts = app.engineOptions();
  let id = o.resume;
  if (!id && o.continue) {
    id = app.store.latest()?.id;
    if (!id) err.write("deepcode: no earlier session in this directory; starting a new one\n");
  }
  if (!id) return Engine.start(opts);
  const engine = await Engine.resume(opts, id);
  for (const note of engine.startNotes) err.write(`deepcode: ${note}\n`);
  return engine;
}

export function resultObject(final: Extract<StreamEvent, { type: "turn.complete" }>, sessionId: string, durationMs: number): ResultObject {
  const u: Usage = final.usage;
  const r: ResultObject = {
    type: "result",
    subtype: final.stopReason === "completed" ? "success" : `error_${final.stopReason}`,
    is_error: final.stopReason !== "completed",
    result: final.text,
    session_id: sessionId,
    num_turns: final.steps,
    stop_reason: final.stopReason,
    duration_ms: durationMs,
    total_cost_usd: Number(final.costUsd.toFixed(8)),
    usage: {
      prompt_tokens: u.prompt_tokens,
      completion_tokens: u.completion_tokens,
      prompt_cache_hit_tokens: u.prompt_cache_hit_tokens,
      prompt_cache_miss_tokens: u.prompt_cache_miss_tokens,
      reasoning_tokens: u.reasoning_tokens,
    },
  };
  if (final.error) r.error = final.error;
  return r;
}
