// WebFetch to a loopback address the person is asked about, in a real terminal (issue #35, item
// 8): `y` lets that one request through to the server; `n` sends nothing; `a` remembers
// WebFetch(domain:HOST) and the next fetch of that host goes through without a question.
// Judged by what the test's own server on 127.0.0.1 received.
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "../repl/helpers.js";

const repl = useRepl();
let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

async function page(): Promise<{ base: string; hits: string[] }> {
  const hits: string[] = [];
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain" }).end(`LOCAL-PAGE ${req.url}`);
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

const fetchCall = (url: string) => ({ tool_calls: [{ name: "UseTool", arguments: { name: "WebFetch", input: { url, prompt: "what is there?" } } }] });
const toolResults = (): string[] => chatBodies(repl.sim.requests).at(-1)!.messages.filter((m) => m.role === "tool").map((m) => String(m.content));

describe("WebFetch to a loopback address", () => {
  it("goes through after `y`, for that call", async () => {
    const { base, hits } = await page();
    const t = await repl.open({ replies: [fetchCall(`${base}/once`), { content: "all done" }] });
    enter(t, "read the local page");
    await t.waitFor("[a] always this session: WebFetch(domain:127.0.0.1)");
    t.press("y");
    await t.waitFor("all done");
    expect(hits).toEqual(["/once"]);
    expect(toolResults()[0]).toContain("LOCAL-PAGE /once");
  });

  it("sends nothing after `n`", async () => {
    const { base, hits } = await page();
    const t = await repl.open({ replies: [fetchCall(`${base}/never`), { content: "all done" }] });
    enter(t, "read the local page");
    await t.waitFor("[a] always this session: WebFetch(domain:127.0.0.1)");
    t.press("n");
    await t.waitFor("all done");
    expect(hits).toEqual([]);
    expect(toolResults()[0]).toMatch(/Permission denied for WebFetch/);
  });

  it("after `a`, reaches the host for the rest of the session without asking again", async () => {
    const { base, hits } = await page();
    const t = await repl.open({ replies: [fetchCall(`${base}/first`), fetchCall(`${base}/second`), { content: "all done" }] });
    enter(t, "read the local pages");
    await t.waitFor("[a] always this session: WebFetch(domain:127.0.0.1)");
    t.press("a");
    await t.waitFor("all done");
    expect(hits).toEqual(["/first", "/second"]);
    expect(t.screen().match(/\[a\] always this session/g)).toHaveLength(1);
    expect(toolResults()[1]).toContain("LOCAL-PAGE /second");
  });
});
