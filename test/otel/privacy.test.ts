// The export's privacy promises, each judged on the bytes a collector receives: a secret in a
// prompt, a path, a command, a reply or a made-up tool name never leaves; the prompt's text
// leaves only when the policy says OTEL_LOG_USER_PROMPTS=1; the project is a hash of its path
// unless the policy says DEEPCODE_OTEL_PROJECT_NAMES=1.
import { afterEach, describe, expect, it } from "vitest";
import { basename } from "node:path";
import { call } from "../e2e/helpers.js";
import { otelRig, rollout, SECRET, type OtelRig } from "./helpers.js";

let t: OtelRig | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A session that touches everything a careless export would leak. */
const leaky = {
  replies: [
    { content: `Thinking about ${SECRET} and /home/alice/private/plan.txt`, ...call("Read", { file_path: "/home/alice/private/plan.txt" }) },
    call("Bash", { command: `curl -H "Authorization: Bearer ${SECRET}" https://internal.example/deploy` }),
    call(`exfiltrate_${SECRET.slice(0, 12)}`, { data: SECRET }),
    { content: `done; the key was ${SECRET}` },
  ],
};
const prompt = `deploy with key ${SECRET} from /srv/acme/prod.env`;
const everything = (t: OtelRig): string => t.collector.received.map((r) => `${r.raw.toString("latin1")}\n${JSON.stringify(r.body)}`).join("\n");

describe.each(["http/protobuf", "http/json"])("what the export never sends over %s", (protocol) => {
  it("holds none of the session's prompts, paths, commands, replies, secrets or the API key", async () => {
    t = await otelRig(leaky);
    const r = await t.run(["-p", prompt, "--allowedTools", "Bash(curl:*)"], { env: rollout(t.collector.url, { OTEL_EXPORTER_OTLP_PROTOCOL: protocol }) });
    expect(r.code, r.stderr).toBe(0);
    const sent = everything(t);
    expect(t.collector.events().map((e) => e.name)).toContain("user_prompt");
    const needles = [SECRET, SECRET.slice(3, 20), "alice", "plan.txt", "/srv/acme", "prod.env", "curl", "internal.example", "deploy", "exfiltrate"];
    for (const needle of [...needles, "sk-test-cli", "Thinking", t.rig.env.root, basename(t.rig.env.root)]) {
      expect(sent, needle).not.toContain(needle);
    }
    const tools = t.collector.events().filter((e) => e.name === "tool_decision").map((e) => e.attrs.tool_name);
    expect(tools).toContain("other");
  });
});

describe("private fields the policy enables", () => {
  it("sends the prompt's text only when the policy sets OTEL_LOG_USER_PROMPTS=1", async () => {
    t = await otelRig({ default: { content: "ok" } });
    await t.run(["-p", prompt], { env: rollout(t.collector.url, { OTEL_LOG_USER_PROMPTS: "1" }) });
    expect(t.collector.events().find((e) => e.name === "user_prompt")?.attrs).toMatchObject({ prompt, prompt_length: prompt.length });
  });

  it("names the project by a hash of its path, or by its folder's name when the policy says so", async () => {
    t = await otelRig({ default: { content: "ok" } });
    await t.run(["-p", "hi"], { env: rollout(t.collector.url) });
    const hashed = t.collector.points().find((p) => p.name === "deepcode.session.count")?.attrs.project;
    expect(hashed).toMatch(/^[0-9a-f]{16}$/);
    t.collector.received.length = 0;
    await t.run(["-p", "-c", "again"], { env: rollout(t.collector.url, { DEEPCODE_OTEL_PROJECT_NAMES: "1" }) });
    expect(t.collector.points().find((p) => p.name === "deepcode.session.count")?.attrs.project).toBe(basename(t.rig.env.root));
  });
});
