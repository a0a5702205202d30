// The two OTLP requests deepcode sends — ExportMetricsServiceRequest and ExportLogsServiceRequest
// — in both encodings OTLP/HTTP defines: protobuf (written by hand here: the few messages and
// field numbers of opentelemetry-proto's metrics/v1, logs/v1, common/v1 and resource/v1) and
// JSON (the proto3 JSON mapping with OTLP's rules: lowerCamelCase keys, 64-bit integers as
// decimal strings, enums as numbers). Metrics are monotonic cumulative sums. Tests decode both
// with the official definitions (@opentelemetry/otlp-transformer's generated protobuf root).

import type { Attrs, LogRecord, Series } from "./store.js";

export interface Batch {
  resource: Attrs;
  scope: { name: string; version: string };
}

const CUMULATIVE = 2;
const SEVERITY_INFO = 9;

// ---- protobuf ---------------------------------------------------------------------------

class Writer {
  private parts: Buffer[] = [];

  private varint(n: bigint): void {
    const bytes: number[] = [];
    let v = BigInt.asUintN(64, n);
    while (v > 0x7fn) {
      bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    bytes.push(Number(v));
    this.parts.push(Buffer.from(bytes));
  }

  private tag(field: number, wire: number): void {
    this.varint(BigInt((field << 3) | wire));
  }

  uint(field: number, n: number | bigint): this {
    this.tag(field, 0);
    this.varint(BigInt(n));
    return this;
  }

  fixed64(field: number, n: bigint): this {
    this.tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt.asUintN(64, n));
    this.parts.push(b);
    return this;
  }

  double(field: number, n: number): this {
    this.tag(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(n);
    this.parts.push(b);
    return this;
  }

  bytes(field: number, data: Buffer): this {
    this.tag(field, 2);
    this.varint(BigInt(data.length));
    this.parts.push(data);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, Buffer.from(s, "utf8"));
  }

  message(field: number, w: Writer): this {
    return this.bytes(field, w.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** AnyValue: string_value 1, bool_value 2, int_value 3, double_value 4. */
function pbValue(v: string | number | boolean): Writer {
  const w = new Writer();
  if (typeof v === "string") return w.string(1, v);
  if (typeof v === "boolean") return w.uint(2, v ? 1 : 0);
  return Number.isSafeInteger(v) ? w.uint(3, BigInt(v)) : w.double(4, v);
}

/** KeyValue: key 1, value 2 (repeated at `field` of the parent). */
function pbAttrs(w: Writer, field: number, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) w.message(field, new Writer().string(1, k).message(2, pbValue(v)));
}

/** Resource (attributes 1) at field 1 and InstrumentationScope (name 1, version 2) at `scopeField`'s parent field 1. */
function pbEnvelope(b: Batch): { resource: Writer; scope: Writer } {
  const resource = new Writer();
  pbAttrs(resource, 1, b.resource);
  return { resource, scope: new Writer().string(1, b.scope.name).string(2, b.scope.version) };
}

export function metricsProtobuf(b: Batch, series: Series[], startNs: bigint, nowNs: bigint): Buffer {
  const { resource, scope } = pbEnvelope(b);
  const scopeMetrics = new Writer().message(1, scope);
  for (const [name, points] of byName(series)) {
    const sum = new Writer();
    for (const p of points) {
      // NumberDataPoint: start_time_unix_nano 2, time_unix_nano 3, as_double 4, as_int 6 (sfixed64), attributes 7
      const dp = new Writer().fixed64(2, startNs).fixed64(3, nowNs);
      if (isInt(p)) dp.fixed64(6, BigInt(p.value));
      else dp.double(4, p.value);
      pbAttrs(dp, 7, p.attrs);
      sum.message(1, dp);
    }
    sum.uint(2, CUMULATIVE).uint(3, 1);
    // Metric: name 1, description 2, unit 3, sum 7
    scopeMetrics.message(2, new Writer().string(1, name).string(2, points[0].description).string(3, points[0].unit).message(7, sum));
  }
  // ResourceMetrics: resource 1, scope_metrics 2; the request: resource_metrics 1
  return new Writer().message(1, new Writer().message(1, resource).message(2, scopeMetrics)).finish();
}

export function logsProtobuf(b: Batch, records: LogRecord[]): Buffer {
  const { resource, scope } = pbEnvelope(b);
  const scopeLogs = new Writer().message(1, scope);
  for (const r of records) {
    // LogRecord: time 1, severity_number 2, severity_text 3, body 5, attributes 6, observed time 11, event_name 12
    const lr = new Writer().fixed64(1, r.timeNs).uint(2, SEVERITY_INFO).string(3, "INFO").message(5, pbValue(r.name));
    pbAttrs(lr, 6, r.attrs);
    lr.fixed64(11, r.timeNs).string(12, r.name);
    scopeLogs.message(2, lr);
  }
  return new Writer().message(1, new Writer().message(1, resource).message(2, scopeLogs)).finish();
}

// ---- JSON -------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function jsonValue(v: string | number | boolean): Json {
  if (typeof v === "string") return { stringValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
}

function jsonAttrs(attrs: Attrs): Json[] {
  return Object.entries(attrs).map(([key, v]) => ({ key, value: jsonValue(v) }));
}

export function metricsJson(b: Batch, series: Series[], startNs: bigint, nowNs: bigint): string {
  const metrics = [...byName(series)].map(([name, points]) => ({
    name,
    description: points[0].description,
    unit: points[0].unit,
    sum: {
      dataPoints: points.map((p) => ({
        attributes: jsonAttrs(p.attrs),
        startTimeUnixNano: String(startNs),
        timeUnixNano: String(nowNs),
        ...(isInt(p) ? { asInt: String(p.value) } : { asDouble: p.value }),
      })),
      aggregationTemporality: CUMULATIVE,
      isMonotonic: true,
    },
  }));
  return JSON.stringify({ resourceMetrics: [{ resource: { attributes: jsonAttrs(b.resource) }, scopeMetrics: [{ scope: b.scope, metrics }] }] });
}

export function logsJson(b: Batch, records: LogRecord[]): string {
  const logRecords = records.map((r) => ({
    timeUnixNano: String(r.timeNs),
    observedTimeUnixNano: String(r.timeNs),
    severityNumber: SEVERITY_INFO,
    severityText: "INFO",
    body: { stringValue: r.name },
    attributes: jsonAttrs(r.attrs),
    eventName: r.name,
  }));
  return JSON.stringify({ resourceLogs: [{ resource: { attributes: jsonAttrs(b.resource) }, scopeLogs: [{ scope: b.scope, logRecords }] }] });
}

// ---- Prometheus text exposition ---------------------------------------------------------

/** The same series as Prometheus counters: dots become underscores, the unit and `_total` follow. */
export function prometheusText(series: Series[]): string {
  const out: string[] = [];
  for (const [name, points] of byName(series)) {
    const unit = points[0].unit === "1" ? "" : `_${points[0].unit}`;
    const metric = `${name.replace(/[^A-Za-z0-9_]/g, "_")}${unit}_total`;
    out.push(`# HELP ${metric} ${points[0].description}`, `# TYPE ${metric} counter`);
    for (const p of points) {
      const escape = (v: string | number | boolean): string => String(v).replace(/[\\"]/g, "\\$&").replace(/\n/g, "\\n");
      const labels = Object.entries(p.attrs).map(([k, v]) => `${k.replace(/[^A-Za-z0-9_]/g, "_")}="${escape(v)}"`);
      out.push(`${metric}${labels.length ? `{${labels.join(",")}}` : ""} ${p.value}`);
    }
  }
  return `${out.join("\n")}\n`;
}

function byName(series: Series[]): Map<string, Series[]> {
  const m = new Map<string, Series[]>();
  for (const s of series) m.set(s.name, [...(m.get(s.name) ?? []), s]);
  return m;
}

function isInt(p: Series): boolean {
  return p.unit !== "USD" && Number.isSafeInteger(p.value);
}
