// Who may roll the export out: only the managed policy. A project's settings (trusted or not),
// the person's own settings and the process environment cannot switch it on or point it at a
// collector; a project's try is said. And a dead or silent collector costs the session nothing
// a person would notice: the same answer, the same exit, no word about it.
import { afterEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../helpers/free-port.js";
import { otelRig, rollout, type OtelRig } from "./helpers.js";

let t: OtelRig | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const answer = { default: { content: "the answer" } };

describe("rolling the export out", () => {
  it("is not done by a trusted project's settings, which are named in a warning", async () => {
    t = await otelRig(answer, { files: { ".deepcode/settings.json": "{}" } });
    writeFileSync(join(t.rig.env.root, ".deepcode", "settings.json"), JSON.stringify({ env: rollout(t.collector.url) }));
    const r = await t.run(["-p", "hi", "--trust-project"], {});
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("the OpenTelemetry export is set only by the managed policy");
    expect(t.collector.received).toEqual([]);
  });

  it("is not done by the person's own settings or environment", async () => {
    t = await otelRig(answer);
    writeFileSync(join(t.rig.env.home, "settings.json"), JSON.stringify({ env: rollout(t.collector.url) }));
    const r = await t.run(["-p", "hi"], {}, rollout(t.collector.url));
    expect(r.code, r.stderr).toBe(0);
    expect(t.collector.received).toEqual([]);
  });
});

describe("a collector that is down", () => {
  it("costs nothing visible when nobody listens: the same answer, exit code and no warning", async () => {
    t = await otelRig(answer);
    const plain = await t.run(["-p", "hi"], {});
    const dead = await t.run(["-p", "hi"], { env: rollout(`http://127.0.0.1:${await freePort()}`) });
    expect({ code: dead.code, stdout: dead.stdout, stderr: dead.stderr }).toEqual({ code: plain.code, stdout: plain.stdout, stderr: plain.stderr });
  });

  it("never holds a session when the collector takes the request and never answers", async () => {
    t = await otelRig(answer, { hang: true });
    const r = await t.run(["-p", "hi"], { env: rollout(t.collector.url, { OTEL_EXPORTER_OTLP_TIMEOUT: "3600000" }) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("the answer");
    expect(r.stderr).toBe("");
    expect(t.collector.received.length).toBeGreaterThan(0);
  });
});
