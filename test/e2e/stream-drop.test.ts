import { afterEach, describe, expect, it } from "vitest";
import { cliRig, type CliRig } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("a stream that drops", () => {
  it("is retried like a 5xx when it drops before any byte of the reply arrived", async () => {
    rig = await cliRig({ replies: [{ content: "never seen", fault: { dropAfterChunks: 0 } }, { fault: { resetBeforeResponse: true } }, { content: "third time lucky" }] });
    const r = await rig.run(["-p", "hi"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("third time lucky\n");
    expect(r.stderr).toMatch(/retrying in [\d.]+ s \(attempt 2\)/);
  });

  it("asks again when the reply is cut mid-stream once, and the same run finishes", async () => {
    rig = await cliRig({ replies: [{ reasoning: "ok", content: "The first half of a long answer, then", chunkSize: 6, fault: { dropAfterChunks: 4 } }, { content: "The whole answer." }] });
    const r = await rig.run(["-p", "explain"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("The whole answer.\n");
    expect(r.stderr).toMatch(/the reply was cut mid-stream; asking again\); retrying in [\d.]+ s \(attempt 2\)/);
    expect(rig.sim.requests).toHaveLength(2);
  });

  it("books both attempts when the reply is cut after reasoning only and asked again: the API bills each (issue #37, item 6)", async () => {
    rig = await cliRig({ replies: [{ reasoning: "Thinking about the question at some length before any answer comes.", content: "never sent", chunkSize: 8, fault: { dropAfterChunks: 5 } }, { content: "The whole answer." }] });
    const r = await rig.run(["-p", "explain"]);
    expect(r.code, r.stderr).toBe(0);
    expect(rig.sim.requests).toHaveLength(2);
    const s = await rig.run(["stats", "--json"]);
    const total = (JSON.parse(s.stdout) as { days: { total: Record<string, number> } }).days.total;
    expect(total.requests, s.stdout).toBe(2);
  });

  it("keeps what arrived when every attempt is cut mid-reply, says so, and -c continues from there", async () => {
    const cut = { reasoning: "ok", content: "The first half of a long answer, then", chunkSize: 6, fault: { dropAfterChunks: 4 } };
    rig = await cliRig({ replies: [cut, cut, cut, cut, { content: "the rest." }] });
    const r = await rig.run(["-p", "explain"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("The first ha\n");
    expect(r.stderr).toMatch(/deepcode: error: the reply ended early: disconnected: the connection to 127\.0\.0\.1 closed before the reply was complete/);
    expect(r.stderr).toMatch(/deepcode: session \d{8}-\d{6}-[0-9a-f]{6} keeps what happened; deepcode -p -c "…" continues it/);
    const again = await rig.run(["-p", "go on", "-c"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("the rest.\n");
    const last = rig.sim.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
    const kept = last.messages.find((m) => m.role === "assistant");
    expect(kept?.content).toBe("The first ha");
    expect(last.messages.at(-1)).toEqual({ role: "user", content: "go on" });
  });

  it("ends with a clear error instead of hanging when only keep-alives come for longer than apiIdleTimeoutMs", async () => {
    // The keep-alives go on far longer than the limit: only the client giving up ends them, however slow the machine.
    rig = await cliRig({ replies: [{ fault: { keepAliveOnlyMs: 120_000, keepAliveEveryMs: 50 } }, { content: "too late" }] }, { ".deepcode/settings.json": JSON.stringify({ apiIdleTimeoutMs: 1000 }) });
    const r = await rig.run(["-p", "hi", "--output-format", "json"]);
    expect(r.code).toBe(1);
    const o = JSON.parse(r.stdout) as { errors: string[] };
    expect(o.errors[0]).toBe("the API sent only keep-alives and no reply for 1 s; gave up (settings apiIdleTimeoutMs sets this limit)");
  });

  it("treats a stream that began and then sends only keep-alives as a stall at apiStallTimeoutMs, and asks again", async () => {
    // The first attempt sends its opening chunk (no token), then keep-alives until the client gives up.
    rig = await cliRig({ replies: [{ content: "never sent", fault: { stallAfterChunks: 1, stallKeepAliveEveryMs: 50 } }, { content: "answered" }] }, { ".deepcode/settings.json": JSON.stringify({ apiStallTimeoutMs: 1000 }) });
    const r = await rig.run(["-p", "hi"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("answered\n");
    expect(r.stderr).toMatch(/the stream stalled: the stream began but sent no token, only keep-alives, for 1 s \(settings apiStallTimeoutMs sets this limit\); retrying in [\d.]+ s \(attempt 2\)/);
  });
});
