// The export tests' rig: the real CLI against the simulator, with a managed policy an
// administrator would write (its `env` block rolls the export out) and a stand-in collector.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRig, type CliRig, type Run } from "../e2e/helpers.js";
import { deepcode } from "../plugins/helpers.js";
import type { Script } from "../sim/server.mjs";
import { startCollector, type Collector } from "./collector.js";

export const SECRET = "sk-live-7f3a9c2e5b1d4f6a8c0e2b4d6f8a0c1e";

export interface OtelRig {
  rig: CliRig;
  collector: Collector;
  /** Run the CLI under the managed policy `policy` (written to a file, as an administrator would). */
  run(args: string[], policy: object, env?: Record<string, string>): Promise<Run>;
  close(): Promise<void>;
}

export async function otelRig(script: Script, o: { files?: Record<string, string>; answer?: number; hang?: boolean } = {}): Promise<OtelRig> {
  const rig = await cliRig(script, o.files);
  const collector = await startCollector(o);
  return {
    rig,
    collector,
    run: (args, policy, env) => {
      const managed = join(rig.env.home, "policy", "managed-settings.json");
      mkdirSync(join(rig.env.home, "policy"), { recursive: true });
      writeFileSync(managed, JSON.stringify(policy));
      return deepcode(rig.env, args, { managed, env });
    },
    close: async () => {
      await collector.close();
      await rig.close();
    },
  };
}

/** The managed `env` that turns the export on, both signals, to `endpoint`. */
export function rollout(endpoint: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CLAUDE_CODE_ENABLE_TELEMETRY: "1",
    OTEL_METRICS_EXPORTER: "otlp",
    OTEL_LOGS_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    ...extra,
  };
}
