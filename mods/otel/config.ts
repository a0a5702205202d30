// What the OpenTelemetry export is told to do, and by whom. Contracts:
// - Only the managed policy rolls it out, in Claude Code's form: its `env` block names
//   `CLAUDE_CODE_ENABLE_TELEMETRY=1` (or `DEEPCODE_ENABLE_TELEMETRY=1`) and the standard `OTEL_*`
//   variables. The same variables in any other settings layer, or in the process environment,
//   are ignored (a layer's try is said once): a repository cannot switch the export on or point
//   it at its own collector, and a developer cannot point the team's figures elsewhere.
// - Private fields stay off unless the policy enables each: `OTEL_LOG_USER_PROMPTS=1` (the
//   prompt's text in `user_prompt` events; its length is always sent) and
//   `DEEPCODE_OTEL_PROJECT_NAMES=1` (the project folder's name instead of a hash of its path).
// - Exporters: `otlp` (protocol `http/protobuf`, the default, or `http/json`), `prometheus` (a
//   scrape endpoint on OTEL_EXPORTER_PROMETHEUS_HOST:PORT, 127.0.0.1:9464 unless set) and `none`;
//   anything else (gRPC among them) is named in a warning and that signal stays off.

import type { SettingsView } from "../../src/contract/index.js";

export type Protocol = "http/protobuf" | "http/json";

export interface OtelConfig {
  metrics: "otlp" | "prometheus" | "none";
  logs: "otlp" | "none";
  metricsUrl: string;
  logsUrl: string;
  metricsProtocol: Protocol;
  logsProtocol: Protocol;
  headers: Record<string, string>;
  timeoutMs: number;
  metricIntervalMs: number;
  logIntervalMs: number;
  prometheus: { host: string; port: number };
  logPrompts: boolean;
  projectNames: boolean;
  resource: Record<string, string>;
}

const ON = /^(1|true|yes|on)$/i;

/** The managed policy's export settings, or null when it does not turn the export on. */
export function otelConfig(settings: SettingsView): { config: OtelConfig | null; warnings: string[] } {
  const warnings: string[] = [];
  let env: Record<string, string> = {};
  for (const l of settings.layers) {
    const block = l.settings.env;
    if (typeof block !== "object" || block === null || Array.isArray(block)) continue;
    const strings = Object.fromEntries(Object.entries(block).filter((kv): kv is [string, string] => typeof kv[1] === "string"));
    if (l.name === "managed") env = strings;
    else if (Object.keys(strings).some((k) => k.startsWith("OTEL_") || k.endsWith("_ENABLE_TELEMETRY"))) {
      warnings.push(
        `${l.file}: the OpenTelemetry export is set only by the managed policy; its OTEL_ and telemetry variables are ignored here`,
      );
    }
  }
  if (!ON.test(env.CLAUDE_CODE_ENABLE_TELEMETRY ?? env.DEEPCODE_ENABLE_TELEMETRY ?? "")) return { config: null, warnings };
  const base = (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? "http://localhost:4318").replace(/\/+$/, "");
  const protocol = (signal: string): Protocol | null => {
    const p = env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
    if (p === "http/protobuf" || p === "http/json") return p;
    const what = signal.toLowerCase();
    warnings.push(`managed policy: OTEL_EXPORTER_OTLP_PROTOCOL ${p} is not supported (use http/protobuf or http/json); ${what} are not exported`);
    return null;
  };
  const exporter = (key: string, allowed: readonly string[]): string => {
    const v = (env[key] ?? "none").split(",")[0].trim();
    if (allowed.includes(v)) return v;
    warnings.push(`managed policy: ${key}=${v} is not supported (${allowed.join(", ")}); nothing is exported for it`);
    return "none";
  };
  let metrics = exporter("OTEL_METRICS_EXPORTER", ["otlp", "prometheus", "none"]) as OtelConfig["metrics"];
  let logs = exporter("OTEL_LOGS_EXPORTER", ["otlp", "none"]) as OtelConfig["logs"];
  const metricsProtocol = metrics === "otlp" ? protocol("METRICS") : "http/protobuf";
  const logsProtocol = logs === "otlp" ? protocol("LOGS") : "http/protobuf";
  if (metricsProtocol === null) metrics = "none";
  if (logsProtocol === null) logs = "none";
  const num = (key: string, fallback: number): number => {
    const n = Number(env[key]);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  return {
    config: {
      metrics,
      logs,
      metricsUrl: env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT ?? `${base}/v1/metrics`,
      logsUrl: env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT ?? `${base}/v1/logs`,
      metricsProtocol: metricsProtocol ?? "http/protobuf",
      logsProtocol: logsProtocol ?? "http/protobuf",
      headers: pairs(env.OTEL_EXPORTER_OTLP_HEADERS),
      timeoutMs: num("OTEL_EXPORTER_OTLP_TIMEOUT", 10_000),
      metricIntervalMs: num("OTEL_METRIC_EXPORT_INTERVAL", 60_000),
      logIntervalMs: num("OTEL_LOGS_EXPORT_INTERVAL", 5_000),
      prometheus: { host: env.OTEL_EXPORTER_PROMETHEUS_HOST ?? "127.0.0.1", port: num("OTEL_EXPORTER_PROMETHEUS_PORT", 9464) },
      logPrompts: ON.test(env.OTEL_LOG_USER_PROMPTS ?? ""),
      projectNames: ON.test(env.DEEPCODE_OTEL_PROJECT_NAMES ?? ""),
      resource: pairs(env.OTEL_RESOURCE_ATTRIBUTES),
    },
    warnings,
  };
}

/** `k=v,k2=v2` (the OTEL list form; values percent-decoded). */
function pairs(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (text ?? "").split(",")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    let value = part.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // a malformed escape: the value is taken as written
    }
    if (key) out[key] = value;
  }
  return out;
}
