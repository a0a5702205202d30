// Sending: asynchronous and bounded, so a dead or slow collector costs a turn nothing. Each
// signal flushes on its own unref'd timer (a timer never keeps deepcode running), one request in
// flight per signal (a flush due while one is out waits for the next tick; events keep queueing,
// bounded by the store), every request limited by OTEL_EXPORTER_OTLP_TIMEOUT, and a failure is
// counted, never shown in the conversation. At a session's end (`flushNow`) one flush waits at most
// CLOSE_WAIT_MS; sockets are unref'd, so a silent collector never keeps deepcode running. The Prometheus exporter serves the
// counters on a scrape endpoint whose server is unref'd too.

import { request as httpRequest, createServer, type Server } from "node:http";
import { request as httpsRequest } from "node:https";
import type { OtelConfig, Protocol } from "./config.js";
import { logsJson, logsProtobuf, metricsJson, metricsProtobuf, prometheusText, type Batch } from "./encode.js";
import { nowNs, type Store } from "./store.js";

export const CLOSE_WAIT_MS = 1500;

export class Exporter {
  failures = 0;
  /** The last failure (where, why), for a status line; never shown in the conversation. */
  lastFailure?: string;
  sent = 0;
  private inFlight = new Map<string, Promise<void>>();
  private timers: NodeJS.Timeout[] = [];
  private server?: Server;

  constructor(
    private readonly cfg: OtelConfig,
    private readonly store: Store,
    private readonly batch: () => Batch,
    private readonly warn: (message: string) => void,
  ) {}

  start(): void {
    if (this.cfg.metrics === "otlp") this.every(this.cfg.metricIntervalMs, () => this.flushMetrics());
    if (this.cfg.logs === "otlp") this.every(this.cfg.logIntervalMs, () => this.flushLogs());
    if (this.cfg.metrics === "prometheus") this.serve();
  }

  flushMetrics(): Promise<void> {
    if (this.cfg.metrics !== "otlp" || !this.store.hasSeries) return Promise.resolve();
    return this.once("metrics", () => {
      const body = this.cfg.metricsProtocol === "http/json"
        ? metricsJson(this.batch(), this.store.snapshot(), this.store.startNs, nowNs())
        : metricsProtobuf(this.batch(), this.store.snapshot(), this.store.startNs, nowNs());
      return this.post(this.cfg.metricsUrl, this.cfg.metricsProtocol, body);
    });
  }

  flushLogs(): Promise<void> {
    if (this.cfg.logs !== "otlp") return Promise.resolve();
    return this.once("logs", () => {
      const records = this.store.take();
      if (records.length === 0) return Promise.resolve();
      const body = this.cfg.logsProtocol === "http/json" ? logsJson(this.batch(), records) : logsProtobuf(this.batch(), records);
      return this.post(this.cfg.logsUrl, this.cfg.logsProtocol, body);
    });
  }

  /** A flush of both signals now, waited for at most CLOSE_WAIT_MS (a session's end). Sockets
   *  are unref'd, so one still waiting on a silent collector never keeps deepcode running. */
  async flushNow(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(CLOSE_WAIT_MS, this.cfg.timeoutMs))));
    const flush = async (): Promise<void> => {
      await Promise.all([...this.inFlight.values()]);
      await Promise.all([this.flushMetrics(), this.flushLogs()]);
    };
    await Promise.race([flush(), deadline]);
    clearTimeout(timer);
  }

  private every(ms: number, flush: () => Promise<void>): void {
    const t = setInterval(() => void flush(), ms);
    t.unref();
    this.timers.push(t);
  }

  private once(signal: string, send: () => Promise<void>): Promise<void> {
    const current = this.inFlight.get(signal);
    if (current) return current;
    const p = send().finally(() => this.inFlight.delete(signal));
    this.inFlight.set(signal, p);
    return p;
  }

  /** One POST; resolves whatever happens. */
  private post(url: string, protocol: Protocol, body: string | Buffer): Promise<void> {
    return new Promise<void>((resolve) => {
      // A failure is counted and nothing else: a dead collector costs the person nothing visible.
      const fail = (why: string): void => {
        this.failures++;
        this.lastFailure = `${safeUrl(url)}: ${why}`;
        resolve();
      };
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        fail("not a URL");
        return;
      }
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(target, {
        method: "POST",
        timeout: this.cfg.timeoutMs,
        headers: {
          ...this.cfg.headers,
          "content-type": protocol === "http/json" ? "application/json" : "application/x-protobuf",
          "content-length": Buffer.byteLength(body),
        },
      });
      req.on("socket", (s) => s.unref());
      req.on("timeout", () => req.destroy(new Error(`no answer within ${this.cfg.timeoutMs} ms`)));
      req.on("error", (err) => fail(err.message));
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode && res.statusCode >= 200 && res.statusCode < 300) {
            this.sent++;
            resolve();
          } else fail(`HTTP ${res.statusCode ?? "?"}`);
        });
        res.on("error", (err) => fail(err.message));
      });
      req.on("close", () => resolve());
      req.end(body);
    });
  }

  private serve(): void {
    const { host, port } = this.cfg.prometheus;
    this.server = createServer((req, res) => {
      if (req.method !== "GET" || !(req.url ?? "").startsWith("/metrics")) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(prometheusText(this.store.snapshot()));
    });
    // A scraper keeps its connection open between scrapes: its socket must not keep deepcode running either.
    this.server.on("connection", (socket) => socket.unref());
    this.server.on("error", (err) => this.warn(`the Prometheus endpoint ${host}:${port} could not start (${err.message}); metrics are not served`));
    this.server.listen(port, host);
    this.server.unref();
  }
}

/** The URL without credentials or query (what a warning may show). */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(not a URL)";
  }
}
