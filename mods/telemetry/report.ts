// `deepcode telemetry` (and `deepcode stats --telemetry`, which runs it): what the local
// telemetry file recorded, read whether or not telemetry is on now. The file is
// `$DEEPCODE_HOME/telemetry.jsonl`, read and written on this machine only.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkTelemetryLine, UsageError, type SubcommandSpec, type TelemetryLine } from "../../src/contract/index.js";

/** `deepcode telemetry [--json]`: the summary of `<home>/telemetry.jsonl`. */
export function telemetrySubcommand(home: string): SubcommandSpec {
  return {
    name: "telemetry",
    description: "what the local telemetry file recorded (when your settings turned it on)",
    usage: "[--json]",
    run(args, ctx) {
      let values: { json?: boolean; help?: boolean };
      try {
        values = parseArgs({ args: [...args], options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }).values;
      } catch (err) {
        throw new UsageError(`deepcode telemetry: ${err instanceof Error ? err.message : String(err)} (deepcode telemetry --help lists the options)`);
      }
      if (values.help) {
        ctx.out("Usage: deepcode telemetry [options]\n\nwhat the local telemetry file recorded (when your settings turned it on)\n\nOptions:\n  --json      the summary as JSON\n  -h, --help  show this help\n");
        return 0;
      }
      const t = readTelemetry(home);
      ctx.out(`${values.json ? JSON.stringify(t, null, 2) : formatTelemetry(t, telemetryFile(home))}\n`);
      return 0;
    },
  };
}

export function telemetryFile(home: string): string {
  return join(home, "telemetry.jsonl");
}

export interface TelemetrySummary {
  lines: number;
  skipped: number;
  sessions: number;
  turns: number;
  costUsd: number;
  stops: Record<string, number>;
  tools: Record<string, Record<string, number>>;
  errors: Record<string, number>;
  compactions: { auto: number; manual: number; failed: number };
  cacheRate: number | null;
}

/** Read the file; every line is checked against the schema again (one that does not conform is
 *  counted as skipped, never shown). Tool names are taken as they stand: the writer checked them. */
export function readTelemetry(home: string): TelemetrySummary {
  const s: TelemetrySummary = { lines: 0, skipped: 0, sessions: 0, turns: 0, costUsd: 0, stops: {}, tools: {}, errors: {}, compactions: { auto: 0, manual: 0, failed: 0 }, cacheRate: null };
  let text = "";
  try {
    text = readFileSync(telemetryFile(home), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  let prompt = 0;
  let cached = 0;
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    let line: TelemetryLine;
    try {
      line = JSON.parse(raw) as TelemetryLine;
    } catch {
      s.skipped++;
      continue;
    }
    const tool = typeof line.tool === "string" ? line.tool : "";
    const model = typeof line.model === "string" ? line.model : "";
    if (checkTelemetryLine(line, { tools: new Set([tool]), models: new Set([model]) })) {
      s.skipped++;
      continue;
    }
    s.lines++;
    const n = (k: string): number => Number(line[k]);
    switch (line.event) {
      case "session_start":
        s.sessions++;
        break;
      case "turn_complete":
        s.turns++;
        s.costUsd += n("cost_usd");
        s.stops[String(line.stop)] = (s.stops[String(line.stop)] ?? 0) + 1;
        prompt += n("prompt_tokens");
        cached += n("cached_tokens");
        break;
      case "tool_call":
        s.tools[tool] ??= {};
        s.tools[tool][String(line.outcome)] = (s.tools[tool][String(line.outcome)] ?? 0) + 1;
        break;
      case "error":
        s.errors[String(line.code)] = (s.errors[String(line.code)] ?? 0) + 1;
        break;
      case "compaction":
        if (line.ok === false) s.compactions.failed++;
        else if (line.auto) s.compactions.auto++;
        else s.compactions.manual++;
        break;
    }
  }
  s.cacheRate = prompt > 0 ? cached / prompt : null;
  return s;
}

export function formatTelemetry(s: TelemetrySummary, file: string): string {
  if (s.lines === 0) return `No telemetry in ${file}${s.skipped ? ` (${s.skipped} lines did not conform and were skipped)` : ""}. Telemetry is off unless your own settings say "telemetry": true.`;
  const count = (r: Record<string, number>): string => Object.entries(r).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(", ");
  const lines = [
    `${file}: ${s.lines} events${s.skipped ? ` (${s.skipped} lines skipped: they did not conform)` : ""}`,
    `sessions     ${s.sessions}`,
    `turns        ${s.turns}${Object.keys(s.stops).length ? ` (${count(s.stops)})` : ""}`,
    `cost         $${s.costUsd.toFixed(4)}${s.cacheRate === null ? "" : `, cache hit rate ${(s.cacheRate * 100).toFixed(1)}%`}`,
    `compactions  ${s.compactions.auto} automatic, ${s.compactions.manual} manual, ${s.compactions.failed} failed`,
    `errors       ${Object.keys(s.errors).length ? count(s.errors) : "none"}`,
    "tool calls",
    ...Object.entries(s.tools)
      .sort((a, b) => Object.values(b[1]).reduce((x, y) => x + y, 0) - Object.values(a[1]).reduce((x, y) => x + y, 0))
      .map(([tool, r]) => `  ${tool.padEnd(24)} ${count(r)}`),
  ];
  return lines.join("\n");
}
