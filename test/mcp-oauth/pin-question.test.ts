// A configured credential pinned to one authorization server, in a session where a person can
// answer (the mcp mod in process, a `person.ask` hook standing in for the REPL): when the MCP
// server's metadata names another authorization server, the person is asked — the question
// names the server and both issuers — before anything is sent there. Yes sends the client
// secret there and re-pins; no sends nothing, is not asked again in this process, and
// `/mcp login` asks again.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startHarness, type Harness } from "../helpers/harness.js";
import type { JsonValue, PersonQuestion } from "../../src/contract/index.js";
import { withOptions } from "../../mods/mcp/index.js";
import { MCP_CLIENT, startGrantsFake, type GrantsFake } from "./fake-grants.js";

let h: Harness | undefined;
let fakes: GrantsFake[] = [];
afterEach(async () => {
  await h?.engine.close("exit");
  await h?.close();
  for (const f of fakes) await f.close();
  h = undefined;
  fakes = [];
});

interface Setup {
  h: Harness;
  home: GrantsFake;
  other: GrantsFake;
  /** The questions the person was asked, in order. */
  asked: PersonQuestion[];
  /** How many requests the other authorization server had received when each question was asked. */
  heardWhenAsked: number[];
  /** The person's next answers (allow or deny), in order; the last one repeats. */
  answers: Array<"allow" | "deny">;
}

/** A session with one remote server whose client_credentials client got its first token from
 *  its own authorization server (so that one is pinned); then the metadata names another. */
async function moved(): Promise<Setup> {
  const home = await startGrantsFake();
  const other = await startGrantsFake();
  fakes.push(home, other);
  const server: JsonValue = { name: "remote", scope: "user", source: "test", transport: "http", url: home.url, oauth: { grant: "client_credentials", clientId: MCP_CLIENT.id, clientSecret: MCP_CLIENT.secret }, raw: {}, start: true, approval: "none" };
  h = await startHarness({ script: { default: { content: "ok" } }, allowAll: true, network: true, mods: [withOptions(() => ({ servers: [server], firstRequestWaitMs: 20_000, roots: [] }))] });
  const s: Setup = { h, home, other, asked: [], heardWhenAsked: [], answers: [] };
  h.chain.on("builtin", "test-person", "person.ask", null, (q) => {
    s.asked.push(q);
    s.heardWhenAsked.push(other.paths.length);
    const decision = s.answers.length > 1 ? s.answers.shift()! : (s.answers[0] ?? "deny");
    // As the REPL answers: the person's own yes or no.
    return decision === "allow" ? { decision, by: "user" } : { decision, reason: "the user said no", by: "user" };
  });
  await h.turn("hello");
  expect(await mcp(h, "remote")).toMatch(/remote: connected · 1 tool/);
  expect(home.tokenRequests).toHaveLength(1);
  home.moveTo(other);
  home.revokeAll();
  return s;
}

async function mcp(harness: Harness, args: string): Promise<string> {
  const out: string[] = [];
  await harness.commands.get("mcp")!.spec.run({ args, sessionId: harness.engine.sessionId, signal: new AbortController().signal, interactive: true, print: (t) => out.push(t), submit: async () => undefined });
  return out.join("\n");
}

const pinned = (s: Setup): string => (JSON.parse(readFileSync(join(s.h.home, "mcp-oauth-pins.json"), "utf8")) as Record<string, { issuer: string }>)[`remote ${new URL(s.home.url).origin}`].issuer;

/** The question named the server and both issuers. */
function expectQuestion(s: Setup): void {
  expect(s.asked).toHaveLength(1);
  const text = [s.asked[0].title, ...(s.asked[0].detail ?? [])].join("\n");
  expect(s.asked[0]).toMatchObject({ kind: "mcp.oauth-pin", from: "mcp:remote" });
  expect(s.asked[0].title).toBe(`Send the MCP server "remote"'s client secret to another authorization server, ${s.other.issuer}? It has gone only to ${s.home.issuer} so far.`);
  expect(text).toContain(`The server ${s.home.url} now names ${s.other.issuer} as its authorization server; until now it named ${s.home.issuer}.`);
}

describe("a changed authorization server, with a person to answer", () => {
  it("yes: the client secret goes to the new server, which is pinned from then on", async () => {
    const s = await moved();
    s.answers.push("allow");
    expect(await mcp(s.h, "reconnect remote")).toMatch(/remote: connected · 1 tool/);
    expectQuestion(s);
    expect(s.heardWhenAsked).toEqual([0]); // nothing sent (nor asked of it) before the answer
    expect(s.other.tokenRequests).toHaveLength(1);
    expect(s.other.tokenRequests[0]).toMatchObject({ form: { grant_type: "client_credentials", resource: s.home.url }, auth: `Basic ${Buffer.from(`${MCP_CLIENT.id}:${MCP_CLIENT.secret}`).toString("base64")}` });
    expect(pinned(s)).toBe(s.other.issuer);
    expect(s.home.tokenRequests).toHaveLength(1);
  });

  it("no: nothing reaches the new server, the pin stays, the same question is not asked again, and /mcp login asks again", async () => {
    const s = await moved();
    s.answers.push("deny");
    const said = await mcp(s.h, "reconnect remote");
    expect(said).toContain(`MCP server remote: you did not allow its client secret to go to the authorization server ${s.other.issuer} (it is pinned to ${s.home.issuer}): nothing was sent.`);
    expectQuestion(s);
    expect(s.other.paths).toEqual([]);
    expect(pinned(s)).toBe(s.home.issuer);
    await mcp(s.h, "reconnect remote");
    expect(s.asked).toHaveLength(1);
    expect(s.other.paths).toEqual([]);
    // A sign-in on purpose asks again; this time the person says yes.
    s.answers.splice(0, s.answers.length, "allow");
    expect(await mcp(s.h, "login remote")).toMatch(/^remote did not ask for sign-in: connected · 1 tool/); // a machine client: no sign-in page
    expect(s.asked).toHaveLength(2);
    expect(s.other.tokenRequests).toHaveLength(1);
    expect(pinned(s)).toBe(s.other.issuer);
  });
});
