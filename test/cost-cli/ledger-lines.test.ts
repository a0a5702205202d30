import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { costOf, splitPrompt } from "../../src/core/cost/index.js";
import { startRig, type Rig } from "./rig.js";


let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const READ_THEN_ANSWER = {
  replies: [
    { content: "", tool_calls: [{ name: "Read", arguments: { file_path: "notes.txt" } }] },
    { content: "The notes say hello." },
    { content: "Nothing else." },
  ],
};

describe("the usage ledger", () => {
  it("writes one line per model request with project, session, model, family, tier, turn, step, tokens and cost", async () => {
    rig = await startRig({ script: READ_THEN_ANSWER });
    writeFileSync(join(rig.root, "notes.txt"), "hello\n");
    expect((await rig.turn("what do the notes say?")).stopReason).toBe("completed");
    expect((await rig.turn("anything else?")).stopReason).toBe("completed");

    const lines = await rig.ledger();
    const chats = rig.chats();
    expect(lines).toHaveLength(3);
    expect(chats).toHaveLength(3);
    expect(lines.map((l) => [l.turn, l.step])).toEqual([[1, 1], [1, 2], [2, 1]]);
    lines.forEach((line, i) => {
      const usage = chats[i].usage!;
      const wire = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, prompt_cache_hit_tokens: usage.prompt_cache_hit_tokens, prompt_cache_miss_tokens: usage.prompt_cache_miss_tokens, reasoning_tokens: usage.completion_tokens_details.reasoning_tokens };
      const cost = costOf(wire, "deepseek-flash", new Date(line.time));
      expect(line).toMatchObject({
        project: rig!.root,
        session: rig!.engine.sessionId,
        model: "deepseek-flash",
        family: "deepseek-flash",
        tier: "chat-full",
        prompt: wire.prompt_tokens,
        ...splitPrompt(wire),
        completion: wire.completion_tokens,
        reasoning: wire.reasoning_tokens,
      });
      expect(line.usd).toBeCloseTo(cost.usd, 12);
      expect(line.cny).toBeCloseTo(cost.cny, 12);
      expect(line.savingUsd).toBeCloseTo(cost.savingUsd, 12);
    });
    expect(lines[2].hit).toBeGreaterThan(0);
  });

  it("records on each line of a turn the estimate the REPL showed before it, for the tier the turn ran at", async () => {
    rig = await startRig({ script: READ_THEN_ANSWER });
    writeFileSync(join(rig.root, "notes.txt"), "hello\n");
    const e = await rig.cost.estimate("what do the notes say?", rig.engine);
    await rig.turn("what do the notes say?");
    const shown = e.tiers.find((t) => t.tier === "chat-full")!;
    if (shown.error !== undefined) throw new Error(shown.error);
    const lines = await rig.ledger();
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l.estimate).toEqual({ tier: "chat-full", lowUsd: shown.lowUsd, highUsd: shown.highUsd, taskClass: e.taskClass });
  });

  it("records an estimate on turns nobody asked one for, so calibration covers every turn", async () => {
    rig = await startRig();
    await rig.turn("fix the typo in README.md");
    await rig.turn("explain what the chain does");
    const lines = await rig.ledger();
    expect(lines.map((l) => l.estimate?.taskClass)).toEqual(["routine", "question"]);
    for (const l of lines) expect(l.estimate!.lowUsd).toBeLessThanOrEqual(l.estimate!.highUsd);
  });

  it("keeps turns going when the ledger cannot be written, says so once, and still counts the spending", async () => {
    rig = await startRig();
    mkdirSync(join(rig.home, "usage.jsonl")); // a folder where the file should be: every append fails
    expect((await rig.turn("hello")).stopReason).toBe("completed");
    expect((await rig.turn("hello again")).stopReason).toBe("completed");
    expect(rig.notices.filter((n) => n.code === "ledger-write-failed")).toHaveLength(1);
    expect(rig.notices[0].message).toContain(join(rig.home, "usage.jsonl"));
    const report = rig.cost.costReport(rig.engine);
    expect(report).toMatch(/^this session\s+2\s+2\s/m);
  });

  it("refuses turns under a budget when the ledger exists but cannot be read, rather than guess the spending", async () => {
    rig = await startRig({ settings: { budget: { daily: 100 } } });
    mkdirSync(join(rig.home, "usage.jsonl"));
    const done = await rig.turn("hello");
    expect(done.stopReason).toBe("budget_exhausted");
    expect(done.error).toContain("cannot read the usage ledger");
    expect(rig.chats()).toHaveLength(0);
  });
});
