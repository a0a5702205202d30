// A stand-in OTLP/HTTP collector for the export tests: it keeps every request's raw bytes and
// decodes them with the official protocol definitions (the protobuf root generated from
// opentelemetry-proto that @opentelemetry/otlp-transformer ships, dev-only) or, for http/json,
// as JSON — so what deepcode sends is judged by what a real collector would read.
import { createServer, type IncomingHttpHeaders } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { AddressInfo } from "node:net";

interface ProtoType {
  decode(buf: Uint8Array): unknown;
  toObject(m: unknown, o: object): Record<string, unknown>;
}
interface Root {
  opentelemetry: { proto: { collector: { metrics: { v1: Record<string, ProtoType> }; logs: { v1: Record<string, ProtoType> } } } };
}
const require = createRequire(import.meta.url);
const pkg = require.resolve("@opentelemetry/otlp-transformer/package.json");
const root = require(join(pkg, "..", "build", "src", "generated", "root.js")) as Root;
const MetricsRequest = root.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
const LogsRequest = root.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
/** protobuf's JSON form: the same shape the http/json encoding uses. */
const AS_JSON = { longs: String, enums: Number, bytes: String, defaults: false, arrays: true };

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: Record<string, unknown>;
}

export interface Point {
  name: string;
  unit: string;
  attrs: Record<string, string | number | boolean>;
  value: number;
  temporality: number;
  monotonic: boolean;
}

export interface LogEvent {
  name: string;
  attrs: Record<string, string | number | boolean>;
}

export interface Collector {
  url: string;
  received: Received[];
  /** The last metrics request's points (cumulative: the last one holds everything). */
  points(): Point[];
  /** Every log record received, in order. */
  events(): LogEvent[];
  resource(): Record<string, string | number | boolean>;
  close(): Promise<void>;
}

/** `answer`: the status to reply (default 200); `hang`: never reply at all. */
export async function startCollector(o: { answer?: number; hang?: boolean } = {}): Promise<Collector> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? "";
      const type = path.endsWith("/v1/logs") ? LogsRequest : MetricsRequest;
      const json = req.headers["content-type"] === "application/json";
      const body = json ? (JSON.parse(raw.toString("utf8")) as Record<string, unknown>) : type.toObject(type.decode(raw), AS_JSON);
      received.push({ path, headers: req.headers, raw, body });
      if (o.hang) return;
      res.writeHead(o.answer ?? 200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const of = (suffix: string): Received[] => received.filter((r) => r.path.endsWith(suffix));
  return {
    url,
    received,
    points: () => {
      const last = of("/v1/metrics").at(-1);
      if (!last) return [];
      const out: Point[] = [];
      for (const rm of list(last.body.resourceMetrics)) {
        for (const sm of list(rm.scopeMetrics)) {
          for (const m of list(sm.metrics)) {
            const sum = m.sum as Record<string, unknown>;
            for (const dp of list(sum.dataPoints)) {
              out.push({
                name: String(m.name), unit: String(m.unit), attrs: attrs(dp.attributes),
                value: dp.asInt !== undefined ? Number(dp.asInt) : Number(dp.asDouble),
                temporality: Number(sum.aggregationTemporality), monotonic: sum.isMonotonic === true,
              });
            }
          }
        }
      }
      return out;
    },
    events: () =>
      of("/v1/logs").flatMap((r) =>
        list(r.body.resourceLogs).flatMap((rl) =>
          list(rl.scopeLogs).flatMap((sl) => list(sl.logRecords).map((lr) => ({ name: String(value(lr.body)), attrs: attrs(lr.attributes) }))),
        ),
      ),
    resource: () => {
      const first = received[0];
      const key = first?.path.endsWith("/v1/logs") ? "resourceLogs" : "resourceMetrics";
      return attrs((list(first?.body[key])[0]?.resource as Record<string, unknown> | undefined)?.attributes);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function list(v: unknown): Array<Record<string, unknown>> {
  return Array.isArray(v) ? (v as Array<Record<string, unknown>>) : [];
}

function value(v: unknown): string | number | boolean {
  const o = (v ?? {}) as Record<string, unknown>;
  if (o.stringValue !== undefined) return String(o.stringValue);
  if (o.boolValue !== undefined) return o.boolValue === true;
  if (o.intValue !== undefined) return Number(o.intValue);
  if (o.doubleValue !== undefined) return Number(o.doubleValue);
  return "";
}

function attrs(v: unknown): Record<string, string | number | boolean> {
  return Object.fromEntries(list(v).map((kv) => [String(kv.key), value(kv.value)]));
}
