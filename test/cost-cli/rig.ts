// A deepcode put together the way the CLI does it (assemble, then installCost), with its engine
// talking to the DeepSeek simulator on 127.0.0.1. Test files that use it must mock the package
// version (src/cli/version.ts reads package.json relative to the compiled tree):
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator, type Script, type SimRequest, type Simulator } from "../sim/server.mjs";
import { assemble, type App } from "../../src/cli/assemble.js";
import { installCost, type CostControl, type CostNotice } from "../../src/core/cost/run/index.js";
import { Engine } from "../../src/core/engine/engine.js";
import { parseLedger, type LedgerRecord } from "../../src/core/cost/index.js";
import type { StreamEvent } from "../../src/contract/index.js";

export const KEY = "sk-test-cost";

export interface Rig {
  sim: Simulator;
  app: App;
  cost: CostControl;
  engine: Engine;
  root: string;
  home: string;
  notices: CostNotice[];
  /** Notices that reached the turns' own streams (what the REPL and stream-json show). */
  streamNotices: string[];
  turn(prompt: string): Promise<Extract<StreamEvent, { type: "turn.complete" }>>;
  /** A new session in the same process (same app and chain). */
  newSession(): Promise<Engine>;
  ledger(): Promise<LedgerRecord[]>;
  /** The chat requests the simulator received (parsed bodies). */
  chats(): SimRequest[];
  close(): Promise<void>;
}

export interface RigOptions {
  script?: Script;
  /** User settings (`<home>/settings.json`). */
  settings?: object;
  /** The managed policy, injected through assemble's managedPath. */
  managed?: object;
  /** Ledger lines present before the session starts. */
  seed?: LedgerRecord[];
  interactive?: boolean;
  model?: string;
  now?: () => Date;
  /** Runs after assemble and before installCost (e.g. to add hooks or change settings). */
  before?: (app: App) => void;
}

/** A ledger line of an earlier session, spending `usd` (and 7× that in CNY) at `time`. */
export function seedRecord(usd: number, time = new Date(), session = "earlier-session"): LedgerRecord {
  return {
    time: time.toISOString(), project: "/elsewhere", session, model: "deepseek-flash", family: "deepseek-flash",
    tier: "chat-full", turn: 1, step: 1, prompt: 1000, hit: 900, miss: 100, completion: 50, reasoning: 10,
    usd, cny: usd * 7, savingUsd: usd / 2, savingCny: (usd * 7) / 2, peak: false,
  };
}

export function writeLedger(home: string, records: LedgerRecord[]): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "usage.jsonl"), records.map((r) => `${JSON.stringify(r)}\n`).join(""));
}

export async function startRig(o: RigOptions = {}): Promise<Rig> {
  const sim = await startSimulator({ script: o.script ?? { default: { content: "done" } }, apiKey: KEY });
  const root = mkdtempSync(join(tmpdir(), "deepcode-cost-root-"));
  const home = mkdtempSync(join(tmpdir(), "deepcode-cost-home-"));
  const managedPath = join(mkdtempSync(join(tmpdir(), "deepcode-cost-policy-")), "managed-settings.json");
  if (o.settings) writeFileSync(join(home, "settings.json"), JSON.stringify(o.settings));
  if (o.managed) writeFileSync(managedPath, JSON.stringify(o.managed));
  if (o.seed) writeLedger(home, o.seed);
  const app = await assemble({
    root, home, managedPath, model: o.model,
    env: { DEEPSEEK_API_KEY: KEY, DEEPSEEK_BASE_URL: sim.url },
    warn: () => undefined,
  });
  o.before?.(app);
  const notices: CostNotice[] = [];
  const cost = installCost(app, { interactive: o.interactive ?? true, now: o.now, notify: (n) => notices.push(n) });
  const start = async (): Promise<Engine> => {
    const engine = await Engine.start(app.engineOptions());
    app.engine = engine;
    return engine;
  };
  const rig: Rig = {
    sim, app, cost, root, home, notices, streamNotices: [],
    engine: await start(),
    async turn(prompt) {
      let done: Extract<StreamEvent, { type: "turn.complete" }> | undefined;
      for await (const e of rig.engine.submit(prompt)) {
        if (e.type === "turn.complete") done = e;
        if (e.type === "notice") rig.streamNotices.push(e.message);
      }
      await cost.flush();
      if (!done) throw new Error("no turn.complete");
      return done;
    },
    async newSession() {
      rig.engine = await start();
      return rig.engine;
    },
    async ledger() {
      await cost.flush();
      const text = await readFile(join(home, "usage.jsonl"), "utf8").catch(() => "");
      return parseLedger(text).records;
    },
    chats: () => sim.requests.filter((r) => r.path.endsWith("/chat/completions")),
    async close() {
      // The session's writer flushes on close: removing its folder before could race it.
      await rig.engine.close("test done");
      await sim.close();
      rmSync(root, { recursive: true, force: true });
      // A mod's last write may still land after close on a loaded machine: retry for ~2 s.
      rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 40 });
    },
  };
  return rig;
}
