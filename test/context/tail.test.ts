import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHarness, complete, type Harness } from "../helpers/harness.js";
import { testTools } from "../helpers/tools.js";
import { chatBodies } from "../helpers/extension.js";
import instructions from "../../mods/instructions/index.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("what changes between turns enters at the tail, never the prefix", () => {
  it("takes an AGENTS.md edited mid-session into account as a tail note, prefix unchanged", async () => {
    const root = mkdtempSync(join(tmpdir(), "deepcode-agents-"));
    writeFileSync(join(root, "AGENTS.md"), "Use tabs.\n");
    h = await startHarness({ root, script: { default: { content: "ok" } }, tools: testTools(), allowAll: true, mods: [instructions] });
    const fingerprint = h.engine.prefix.fingerprint;
    expect(h.engine.prefix.system).toContain("Use tabs.");
    await h.turn("first");
    writeFileSync(join(root, "AGENTS.md"), "Use two spaces, never tabs.\n");
    await h.turn("second");
    expect(h.engine.prefix.fingerprint).toBe(fingerprint);
    const last = chatBodies(h.sim.requests).pop()!;
    expect(last.messages[0].content).toContain("Use tabs.");
    const note = last.messages[last.messages.length - 2];
    expect(note).toMatchObject({ role: "user", content: expect.stringContaining("Use two spaces, never tabs.") });
    expect(String(note.content)).toMatch(/instructions:AGENTS.md" changed/);
    expect(last.messages[last.messages.length - 1]).toEqual({ role: "user", content: "second" });
    await h.turn("third");
    const third = chatBodies(h.sim.requests).pop()!;
    expect(third.messages.filter((m) => String(m.content).includes("Use two spaces"))).toHaveLength(1);
  });

  it("reaches a tool added mid-session through the proxy, prefix unchanged", async () => {
    h = await startHarness({
      script: {
        replies: [
          { content: "hello" },
          { tool_calls: [{ name: "UseTool", arguments: { name: "Weather", input: { city: "Hangzhou" } } }] },
          { content: "it is sunny" },
        ],
      },
      tools: testTools(),
      allowAll: true,
    });
    const fingerprint = h.engine.prefix.fingerprint;
    await h.turn("hi");
    h.options.registry.add(
      {
        name: "Weather",
        description: "Today's weather in a city.",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        readOnly: true,
        run: async (input) => ({ content: `sunny in ${String(input.city)}` }),
      },
      "mcp:weather",
    );
    const events = await h.turn("what is the weather in Hangzhou?");
    expect(complete(events).stopReason).toBe("completed");
    expect(h.engine.prefix.fingerprint).toBe(fingerprint);
    const bodies = chatBodies(h.sim.requests);
    expect(JSON.stringify(bodies[1].tools)).toBe(JSON.stringify(bodies[0].tools));
    expect(bodies[1].messages.some((m) => String(m.content).includes("Weather (from mcp:weather)"))).toBe(true);
    expect(events).toContainEqual(expect.objectContaining({ type: "tool.end", tool: "Weather", output: expect.objectContaining({ content: "sunny in Hangzhou" }) }));
  });

  it("sends DeepSeek's latest_reminder with the date once, before the first prompt", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, tools: testTools(), allowAll: true, engine: { now: () => new Date("2026-11-30T12:00:00Z") } });
    await h.turn("a");
    await h.turn("b");
    const last = chatBodies(h.sim.requests).pop()!;
    const reminders = last.messages.filter((m) => m.role === "latest_reminder");
    expect(reminders).toEqual([{ role: "latest_reminder", content: "2026-11-30,Monday,,Terminal,English" }]);
    expect(last.messages[1]).toEqual(reminders[0]);
  });

  it("tells the model which files it read changed on disk since", async () => {
    h = await startHarness({ script: { default: { content: "ok" } }, tools: testTools(), allowAll: true });
    const file = join(h.root, "a.txt");
    writeFileSync(file, "one\n");
    const { statSync } = await import("node:fs");
    const st = statSync(file);
    (h.engine as unknown as { reads: Map<string, unknown> }).reads.set(file, { mtimeMs: st.mtimeMs, size: st.size, hash: "x" });
    await h.turn("first");
    writeFileSync(file, "two two\n");
    await h.turn("second");
    const last = chatBodies(h.sim.requests).pop()!;
    expect(last.messages.some((m) => String(m.content).includes("changed on disk since") && String(m.content).includes("a.txt"))).toBe(true);
  });
});
