// The script decides what the simulated model says: replies in order, then rules on the last
// message, then a function, then a default. It can also say the malformed things real models say.
import { readFileSync } from "node:fs";
import https from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dsml, jsonToolCallText, startSimulator, type Simulator } from "./server.mjs";
import { selfSignedCert } from "./tls.mjs";
import { assemble, call, chunksOf } from "./client.js";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- messages are built freely here
const ask = async (messages: any[], extra: object = {}) => {
  const r = await call(`${sim.url}/chat/completions`, { model: "deepseek-chat", messages, ...extra });
  expect(r.status, r.raw).toBe(200);
  return JSON.parse(r.raw).choices[0];
};
const user = (content: string) => [{ role: "user", content }];

describe("choosing the reply", () => {
  it("consumes replies in order, then matches rules on the last message, then falls back to the default", async () => {
    sim.setScript({
      replies: [{ content: "one" }, { content: "two" }],
      rules: [
        { when: { lastRole: "user", lastContains: "PASS" }, reply: { content: "rule: contains" } },
        { when: { lastRole: "user", lastRegex: "^fix (\\S+)$" }, reply: { content: "fixing $1", tool_calls: [{ name: "Edit", arguments: { file_path: "$1" } }] } },
      ],
      default: { content: "default" },
    });
    expect((await ask(user("PASS"))).message.content).toBe("one");
    expect((await ask(user("PASS"))).message.content).toBe("two");
    expect((await ask(user("tests PASS now"))).message.content).toBe("rule: contains");
    const fix = await ask(user("fix src/b.ts"));
    expect(fix.message.content).toBe("fixing src/b.ts");
    expect(JSON.parse(fix.message.tool_calls[0].function.arguments)).toEqual({ file_path: "src/b.ts" });
    expect((await ask(user("something else"))).message.content).toBe("default");
  });

  it("matches a rule on the role of the last message, so a tool result can get its own answer", async () => {
    sim.setScript({ rules: [{ when: { lastRole: "tool" }, reply: { content: "read it" } }], default: { content: "calling", tool_calls: [{ name: "Read", arguments: {} }] } });
    const first = await ask(user("go"));
    const id = first.message.tool_calls[0].id;
    const second = await ask([...user("go"), first.message, { role: "tool", tool_call_id: id, content: "data" }]);
    expect(second.message.content).toBe("read it");
  });

  it("asks respond(request, index) when no reply or rule applies, and uses the default when it returns nothing", async () => {
    const seen: [string, number][] = [];
    sim.setScript({
      respond: (req, index) => {
        seen.push([req.messages[req.messages.length - 1].content, index]);
        return index === 1 ? null : { content: `computed #${index}` };
      },
      default: { content: "fallback" },
    });
    expect((await ask(user("a"))).message.content).toBe("computed #0");
    expect((await ask(user("b"))).message.content).toBe("fallback");
    expect((await ask(user("c"))).message.content).toBe("computed #2");
    expect(seen).toEqual([["a", 0], ["b", 1], ["c", 2]]);
  });

  it("starts over from the first reply after setScript", async () => {
    const script = { replies: [{ content: "first" }, { content: "second" }] };
    sim.setScript(script);
    await ask(user("x"));
    sim.setScript(script);
    expect((await ask(user("x"))).message.content).toBe("first");
  });

  it("uses the scripted finish_reason, or tool_calls / stop by default", async () => {
    sim.setScript({ replies: [{ content: "cut", finish_reason: "length" }, { content: "x", finish_reason: "content_filter" }, { content: "y" }] });
    expect((await ask(user("a"))).finish_reason).toBe("length");
    expect((await ask(user("a"))).finish_reason).toBe("content_filter");
    expect((await ask(user("a"))).finish_reason).toBe("stop");
  });
});

describe("malformed model output", () => {
  it("sends raw_arguments verbatim, truncated JSON included", async () => {
    sim.setScript({ replies: [{ tool_calls: [{ name: "Read", raw_arguments: '{"file_pa' }] }] });
    const r = await call(`${sim.url}/chat/completions`, { model: "deepseek-chat", stream: true, messages: user("x") });
    expect(assemble(chunksOf(r.raw)).calls[0].arguments).toBe('{"file_pa');
  });

  it("builds DSML tool-call markup with a full-width or an ASCII bar", () => {
    const params = { file_path: "a.ts", limit: 20 };
    expect(dsml([{ name: "Read", params }])).toBe(
      '<｜DSML｜tool_calls><｜DSML｜invoke name="Read"><｜DSML｜parameter name="file_path" string="true">a.ts</｜DSML｜parameter>' +
        '<｜DSML｜parameter name="limit" string="false">20</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>',
    );
    expect(dsml([{ name: "Read", params }], { ascii: true, wrapper: "function_calls" })).toMatch(/^<\|DSML\|function_calls><\|DSML\|invoke name="Read">/);
  });

  it("carries tool calls written as text in content or in reasoning, with finish_reason stop and no tool_calls", async () => {
    const inReasoning = jsonToolCallText([{ name: "Read", arguments: { file_path: "a.ts" } }]);
    sim.setScript({ replies: [{ content: dsml([{ name: "Read", params: { file_path: "a.ts" } }]) }, { reasoning: inReasoning, content: "" }] });
    const a = await ask(user("x"));
    expect(a.finish_reason).toBe("stop");
    expect(a.message.tool_calls).toBeUndefined();
    expect(a.message.content).toContain('<｜DSML｜invoke name="Read">');
    const b = await ask(user("x"), { model: "deepseek-flash" });
    expect(JSON.parse(b.message.reasoning_content)).toEqual({ name: "Read", arguments: { file_path: "a.ts" } });
  });

  it("repeats the same call when the script says so", async () => {
    const same = { tool_calls: [{ name: "Read", arguments: { file_path: "a.ts" } }] };
    sim.setScript({ replies: [same, same] });
    const a = await ask(user("x"));
    const b = await ask(user("x"));
    expect(b.message.tool_calls[0].function).toEqual(a.message.tool_calls[0].function);
  });
});

describe("the request log", () => {
  it("keeps every request in order with its exact body bytes, parsed JSON, status and usage", async () => {
    sim.setScript({ default: { content: "ok" } });
    const body = '{ "model":"deepseek-chat",\n  "messages":[{"role":"user","content":"h\\u00e9llo ✓"}] }';
    const before = sim.requests.length;
    await call(`${sim.url}/v1/chat/completions?x=1`, body, { headers: { "x-trace": "t1" } });
    await call(`${sim.url}/chat/completions`, "{oops");
    const [a, b] = sim.requests.slice(before);
    expect(a).toMatchObject({ method: "POST", path: "/v1/chat/completions", body, status: 200 });
    expect(a.headers["x-trace"]).toBe("t1");
    expect(a.json.messages[0].content).toBe("héllo ✓");
    expect(a.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(b).toMatchObject({ body: "{oops", json: null, status: 400, usage: null });
  });
});

describe("the demo script", () => {
  it("reads the file a user names with the Read tool, then summarises it", async () => {
    sim.setScript(JSON.parse(readFileSync(new URL("./demo-script.json", import.meta.url), "utf8")));
    const hello = await ask(user("hello"));
    expect(hello.message.content).toMatch(/simulator/);
    const q = user("What is in package.json?");
    const call1 = await ask(q);
    expect(call1.message.tool_calls[0].function).toEqual({ name: "Read", arguments: '{"file_path":"package.json"}' });
    const done = await ask([...q, call1.message, { role: "tool", tool_call_id: call1.message.tool_calls[0].id, content: '{\n  "name": "deepcode"\n}' }]);
    expect(done.message.content).toContain("{");
    expect(done.finish_reason).toBe("stop");
  });
});

describe("https", () => {
  const cert = selfSignedCert();
  it.skipIf(!cert)("serves https when given a key pair", async () => {
    const secure = await startSimulator({ tls: cert ?? undefined, script: { default: { content: "over tls" } } });
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const text = await new Promise<string>((resolve, reject) => {
        const req = https.request(`${secure.url}/chat/completions`, { method: "POST", ca: cert?.cert }, (res) => {
          let d = "";
          res.on("data", (c) => (d += c));
          res.on("end", () => resolve(d));
        });
        req.on("error", reject);
        req.end(JSON.stringify({ model: "deepseek-chat", messages: user("x") }));
      });
      expect(JSON.parse(text).choices[0].message.content).toBe("over tls");
    } finally {
      await secure.close();
    }
  });
});

describe("replaying a reply as the exact chunks a report shows", () => {
  it("sends each chunk with the reply's id and model, usage on the finishing chunk, verbatim strings as they are, then [DONE]", async () => {
    sim.setScript({
      replies: [
        {
          chunks: [
            { delta: { role: "assistant", content: "" } },
            ": keep-alive\n\n",
            { delta: { content: "hello<‖DS" } },
            { delta: { content: "ML‖tool_calls>world" } },
            { delta: { tool_calls: [{ index: 0, id: "", type: "", function: { name: "", arguments: "" } }] } },
            { delta: { tool_calls: [{ index: 0, id: "call_00_x", function: { name: "Read", arguments: '{"a":1}' } }] } },
            { delta: { content: "" }, finish_reason: "tool_calls" },
          ],
        },
      ],
    });
    const r = await call(`${sim.url}/chat/completions`, { model: "deepseek-chat", messages: user("go"), stream: true });
    expect(r.status).toBe(200);
    expect(r.raw).toContain(": keep-alive\n\n");
    expect(r.raw.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const chunks = chunksOf(r.raw);
    expect(chunks).toHaveLength(6);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.map((c) => c.choices[0].delta.content ?? null)).toEqual(["", "hello<‖DS", "ML‖tool_calls>world", null, null, ""]);
    expect(chunks.filter((c) => c.usage).length).toBe(1);
    expect(chunks[5].usage.completion_tokens).toBeGreaterThan(0);
    expect(chunks[4].choices[0].delta.tool_calls).toEqual([{ index: 0, id: "call_00_x", function: { name: "Read", arguments: '{"a":1}' } }]);
    expect(chunks[5].choices[0].finish_reason).toBe("tool_calls");
  });

  it("answers a non-streamed request for the same chunks with the message they add up to", async () => {
    sim.setScript({ replies: [{ chunks: [{ delta: { content: "a" } }, { delta: { content: "b" }, finish_reason: "stop" }] }] });
    const choice = await ask(user("go"), { stream: false });
    expect(choice.message.content).toBe("ab");
    expect(choice.finish_reason).toBe("stop");
  });
});
