// WebFetch to the agent's own dev server (issue #35, item 8): at a port a background job's server
// is forwarded at (the sandbox's `served`), 127.0.0.1, localhost and [::1] are allowed without a
// question; another port, another host, another tool, or a deny/ask rule for the host still
// decide as before. The core's fetch policy reads the same fact, beside the allow rules and a
// person's yes to the call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallCover, decide, privateFetchAllowed, type ToolCall } from "../../src/cli/permissions/index.js";
import { makeWorkspace, rulesOf, type Workspace } from "./helpers.js";

let ws: Workspace;
beforeAll(() => (ws = makeWorkspace()));
afterAll(() => ws.cleanup());

const fetchOf = (url: string): ToolCall => ({ tool: "WebFetch", input: { url, prompt: "?" }, readOnly: false });

describe("WebFetch at a forwarded port", () => {
  it("is allowed without a question at 127.0.0.1, localhost and [::1]", () => {
    for (const url of ["http://127.0.0.1:5173/", "http://localhost:5173/app", "http://[::1]:5173/"]) {
      expect(decide(fetchOf(url), [], { ...ws.env, servedPorts: [5173] }), url).toMatchObject({ decision: "allow", by: "sandbox" });
    }
  });

  it("still asks at another port, another host, or with no job serving", () => {
    expect(decide(fetchOf("http://127.0.0.1:8080/"), [], { ...ws.env, servedPorts: [5173] }).decision).toBe("ask");
    expect(decide(fetchOf("http://10.0.0.5:5173/"), [], { ...ws.env, servedPorts: [5173] }).decision).toBe("ask");
    expect(decide(fetchOf("http://127.0.0.1:5173/"), [], ws.env).decision).toBe("ask");
    expect(decide(fetchOf("http://127.0.0.1/"), [], { ...ws.env, servedPorts: [5173] }).decision).toBe("ask");
  });

  it("yields to a deny or ask rule for the host", () => {
    const env = { ...ws.env, servedPorts: [5173] };
    expect(decide(fetchOf("http://localhost:5173/"), rulesOf({ user: { deny: ["WebFetch(domain:localhost)"] } }), env).decision).toBe("deny");
    expect(decide(fetchOf("http://localhost:5173/"), rulesOf({ project: { ask: ["WebFetch(domain:localhost)"] } }), env).decision).toBe("ask");
  });
});

describe("the fetch policy for loopback and private addresses", () => {
  const req = (url: string, callId?: string) => ({ url, ...(callId ? { callId } : {}) });

  it("lets a forwarded port, an allow rule naming the host, or a yes to the very call through, and nothing else", () => {
    const cover = new CallCover();
    const policy = { rules: () => rulesOf({ user: { allow: ["WebFetch(domain:intranet.test)", "WebFetch"] } }), cover, servedPorts: () => [5173] };
    expect(privateFetchAllowed(policy, "127.0.0.1", req("http://127.0.0.1:5173/"))).toBe(true);
    expect(privateFetchAllowed(policy, "intranet.test", req("http://intranet.test/docs"))).toBe(true);
    // A bare `WebFetch` allow does not open loopback; neither does an unanswered question.
    expect(privateFetchAllowed(policy, "127.0.0.1", req("http://127.0.0.1:8080/"))).toBe(false);
    cover.record({ type: "tool.check", sessionId: "s", callId: "c1", tool: "WebFetch", input: { url: "http://127.0.0.1:8080/page" }, readOnly: false, step: 0 } as never, ws.env);
    expect(privateFetchAllowed(policy, "127.0.0.1", req("http://127.0.0.1:8080/page", "c1"))).toBe(false);
    cover.approve("c1");
    expect(privateFetchAllowed(policy, "127.0.0.1", req("http://127.0.0.1:8080/page", "c1"))).toBe(true);
    // The yes covers that call's host only, and no other call.
    expect(privateFetchAllowed(policy, "127.0.0.1", req("http://127.0.0.1:8080/page", "c2"))).toBe(false);
    expect(privateFetchAllowed(policy, "10.0.0.5", req("http://10.0.0.5:8080/page", "c1"))).toBe(false);
  });
});
