// WebFetch through the real CLI in -p: a page on a local HTTP server (127.0.0.1, reached only
// because the test's own rule names that host), read as text; loopback and private addresses
// refused without a rule naming the host, whatever the gate said; a redirect to another host
// not followed but reported; each hop checked again; a repeated fetch answered from the cache.
import { afterEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "../repl/helpers.js";

const PAGE = `<!doctype html><html><head><title>Widget docs</title><style>.x{color:red}</style>
<script>document.write("SCRIPT-TEXT")</script></head><body>
<h2>Install</h2><p>Run <code>npm i widget</code>, then see <a href="/api">the API</a>.</p>
<ul><li>fast</li><li>small</li></ul><pre>widget --help
  --port N</pre></body></html>`;

let rig: CliRig | undefined;
let server: Server | undefined;
afterEach(async () => {
  await rig?.close();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  rig = server = undefined;
});

async function pages(routes: Record<string, (res: import("node:http").ServerResponse) => void>): Promise<{ base: string; hits: string[] }> {
  const hits: string[] = [];
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const route = routes[req.url ?? ""];
    if (route) route(res);
    else res.writeHead(404).end("no such page");
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

const fetchCall = (url: string, prompt = "How is it installed?") => ({ tool_calls: [{ name: "UseTool", arguments: { name: "WebFetch", input: { url, prompt } } }] });

/** Runs -p with these model replies and the person's allow rules; the tool results, in order. */
async function run(replies: object[], allow: string[]): Promise<{ results: string[]; stderr: string; code: number | null }> {
  rig = await cliRig({ replies: [...replies, { content: "done" }] });
  writeFileSync(join(rig.env.home, "settings.json"), JSON.stringify({ permissions: { allow } }));
  const r = await rig.run(["-p", "read the docs"]);
  const last = chatBodies(rig.sim.requests).at(-1)!;
  return { results: last.messages.filter((m) => m.role === "tool").map((m) => String(m.content)), stderr: r.stderr, code: r.code };
}

describe("WebFetch", () => {
  it("reads a page as text with the prompt as the question, without script or style, when a rule names the host", async () => {
    const { base } = await pages({ "/docs": (res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE) });
    const { results, code } = await run([fetchCall(`${base}/docs`)], ["WebFetch(domain:127.0.0.1)"]);
    expect(code).toBe(0);
    const page = results[0];
    expect(page).toContain(`URL: ${base}/docs`);
    expect(page).toContain("Title: Widget docs");
    expect(page).toContain("Question: How is it installed?");
    expect(page).toContain("## Install");
    expect(page).toContain(`Run \`npm i widget\`, then see [the API](${base}/api).`);
    expect(page).toMatch(/- fast\n- small/);
    expect(page).toContain("```\nwidget --help\n  --port N\n```");
    expect(page).not.toMatch(/SCRIPT-TEXT|color:red|<p>/);
  });

  it("never reaches loopback without a rule naming the host, even when a rule allows every WebFetch", async () => {
    const { base, hits } = await pages({ "/docs": (res) => res.end(PAGE) });
    const { results } = await run([fetchCall(`${base}/docs`), fetchCall(`${base.replace("127.0.0.1", "localhost")}/docs`)], ["WebFetch"]);
    expect(results[0]).toMatch(/request refused: .*127\.0\.0\.1.* is a loopback address.*WebFetch\(domain:127\.0\.0\.1\)/);
    expect(results[1]).toMatch(/request refused: .*localhost resolves to 127\.0\.0\.1/);
    expect(hits).toEqual([]);
  });

  it("asks per host: with nobody to answer (-p) an unlisted host is denied, naming the rule that would allow it", async () => {
    const { base, hits } = await pages({ "/docs": (res) => res.end(PAGE) });
    const { results } = await run([fetchCall(`${base}/docs`)], []);
    expect(results[0]).toMatch(/Permission denied for WebFetch/);
    expect(results[0]).toContain("WebFetch(domain:127.0.0.1)");
    expect(hits).toEqual([]);
  });

  it("does not follow a redirect to another host (a private address): it says where it leads, and the next call is checked again", async () => {
    const { base, hits } = await pages({
      "/moved": (res) => res.writeHead(302, { location: `${base.replace("127.0.0.1", "localhost")}/secret` }).end(),
      "/secret": (res) => res.end("INSIDE"),
      "/hop": (res) => res.writeHead(301, { location: "/docs" }).end(),
      "/docs": (res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE),
    });
    const { results } = await run([fetchCall(`${base}/moved`), fetchCall(`${base.replace("127.0.0.1", "localhost")}/secret`), fetchCall(`${base}/hop`)], ["WebFetch(domain:127.0.0.1)"]);
    expect(results[0]).toMatch(/redirects \(302\) to http:\/\/localhost:\d+\/secret, on another host\. It was not followed/);
    // The model's next call names localhost: no rule allows it, so nobody (in -p) lets it through.
    expect(results[1]).toMatch(/Permission denied for WebFetch/);
    // A redirect on the same host is followed, hop by hop.
    expect(results[2]).toContain("## Install");
    expect(hits).toEqual(["/moved", "/hop", "/docs"]);
  });

  it("answers a repeated fetch of the same page (another anchor, another question) from its cache", async () => {
    let served = 0;
    const { base, hits } = await pages({ "/docs": (res) => (served++, res.writeHead(200, { "content-type": "text/html" }).end(PAGE)) });
    const { results } = await run([fetchCall(`${base}/docs`), fetchCall(`${base}/docs#install`, "What does it need?")], ["WebFetch(domain:127.0.0.1)"]);
    expect(results[1]).toContain("Question: What does it need?");
    expect(results[1]).toContain("## Install");
    expect(served).toBe(1);
    expect(hits).toEqual(["/docs"]);
  });
});


describe("WebFetch in the REPL", () => {
  // The terminal tests' hooks (tmux, skip without it) for this block only.
  const repl = useRepl();

  it("asks about the host, offering to remember WebFetch(domain:HOST), and a no sends nothing", async () => {
    const fetch = { tool_calls: [{ name: "UseTool", arguments: { name: "WebFetch", input: { url: "https://docs.example.com/guide", prompt: "how to install" } } }] };
    const t = await repl.open({ replies: [fetch, { content: "ok, not fetched" }] });
    enter(t, "read the guide");
    const s = await t.waitFor("[a] always this session: WebFetch(domain:docs.example.com)");
    expect(s).toMatch(/WebFetch reaches docs\.example\.com: needs approval/);
    expect(s).toContain("GET https://docs.example.com/guide");
    t.press("n");
    await t.waitFor("ok, not fetched");
    const tool = chatBodies(repl.sim.requests).at(-1)!.messages.find((m) => m.role === "tool");
    expect(String(tool?.content)).toMatch(/Permission denied for WebFetch/);
  });
});
