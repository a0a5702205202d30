// A dev server as a background job, through the real CLI in a real terminal (issue #35, item 8):
// the job's server in the sandbox is reached from this machine at its own port; the model hears
// the address; WebFetch to it runs without a question (the agent's own contained server) and
// reads the job's page; /jobs shows the address. When the port is taken on this machine (the
// person's own server, in -p), nothing is bound: the model is told, WebFetch there is not
// allowed unasked, and the person's server keeps answering. Skipped where bubblewrap cannot run.
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { cliRig, type CliRig } from "../e2e/helpers.js";
import { chatBodies } from "../helpers/extension.js";
import { accepts, freePort } from "../helpers/free-port.js";
import { enter, useRepl } from "../repl/helpers.js";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { toolResults, type Chat } from "./helpers.js";

const repl = useRepl();

describe("a dev server started as a background job", () => {
  it("is reachable at its port, WebFetch reads it without a question, and /jobs shows the address", async (ctx) => {
    if (!sandboxStatus().active) ctx.skip(); // bubblewrap cannot run here
    const port = await freePort();
    const server = `require("http").createServer((q, r) => r.end("<title>Dev</title><p>PAGE-FROM-THE-JOB</p>")).listen(${port});\n`;
    let up = false;
    const t = await repl.open(
      {
        respond: async (json: Chat) => {
          const last = json.messages.at(-1);
          if (last?.role === "user" && last.content === "start the dev server") return { tool_calls: [{ name: "Bash", arguments: { command: "node server.js", run_in_background: true } }] };
          if (last?.role === "tool" && toolResults(json).length === 1) {
            // The model's next step comes once the server answers on this machine.
            for (let i = 0; i < 1200 && !up; i++) {
              up = await accepts(port);
              if (!up) await new Promise((r) => setTimeout(r, 50));
            }
            return { tool_calls: [{ name: "UseTool", arguments: { name: "WebFetch", input: { url: `http://127.0.0.1:${port}/`, prompt: "what does it say?" } } }] };
          }
          if (last?.role === "tool") return { content: "fetched it" };
          return { content: "noted" };
        },
      },
      { "server.js": server },
      { settings: { estimate: "show", permissions: { allow: ["Bash(node server.js)"] } } },
    );
    enter(t, "start the dev server");
    await t.waitFor("fetched it");
    expect(up).toBe(true);
    expect(t.screen()).not.toContain("[a] always this session");
    const results = toolResults(chatBodies(repl.sim.requests).at(-1) as Chat);
    expect(results[1]).toContain("PAGE-FROM-THE-JOB");
    // The model hears the address: in the start result, or in a note on the next result.
    expect(results.join("\n")).toContain(`http://127.0.0.1:${port}`);
    enter(t, "/jobs");
    const listed = await t.waitFor(new RegExp(`^1\\s+running\\s+.*http://127\\.0\\.0\\.1:${port}\\s+node server\\.js`, "m"));
    expect(listed).toMatch(/^id\s+state\s+runtime\s+output\s+address\s+command$/m);
    enter(t, "/jobs kill 1");
    await t.waitFor("stopped job 1");
    expect(await accepts(port)).toBe(false);
  });
});

describe("a dev server whose port is taken on this machine", () => {
  let rig: CliRig | undefined;
  let mine: Server | undefined;
  afterEach(async () => {
    await rig?.close();
    await new Promise((r) => (mine ? mine.close(r) : r(undefined)));
    rig = mine = undefined;
  });

  it("is not forwarded: the model is told to use another port, WebFetch there still asks, and the person's server keeps answering", async (ctx) => {
    if (!sandboxStatus().active) ctx.skip(); // bubblewrap cannot run here
    const port = await freePort();
    mine = createServer((_q, r) => r.end("THE-PERSONS-OWN-SERVER"));
    await new Promise<void>((r) => mine!.listen(port, "127.0.0.1", () => r()));
    const server = `require("http").createServer((q, r) => r.end("THE-JOBS-SERVER")).listen(${port}, "127.0.0.1");\n`;
    let reads = 0;
    rig = await cliRig(
      {
        respond: async (json: Chat) => {
          const results = toolResults(json);
          if (results.length === 0) return { tool_calls: [{ name: "Bash", arguments: { command: "node server.js", run_in_background: true } }] };
          // Read the job's output until the sandbox has said what became of its port (a filter
          // of its own each time: the call-storm breaker stops a call repeated as it was).
          if (!/is not forwarded to this machine/.test(results.join("\n")) && reads < 600) {
            reads++;
            await new Promise((r) => setTimeout(r, 100));
            return { tool_calls: [{ name: "UseTool", arguments: { name: "BashOutput", input: { bash_id: "1", filter: `forwarded|read ${reads}` } } }] };
          }
          if (!results.some((r) => r.includes("Permission denied for WebFetch"))) return { tool_calls: [{ name: "UseTool", arguments: { name: "WebFetch", input: { url: `http://127.0.0.1:${port}/`, prompt: "what is it?" } } }] };
          return { content: "done" };
        },
      },
      { "server.js": server, ".deepcode/settings.json": JSON.stringify({ permissions: { allow: ["Bash(node server.js)"] } }) },
    );
    const r = await rig.run(["-p", "start the dev server", "--trust-project"]);
    const results = toolResults(chatBodies(rig.sim.requests).at(-1) as Chat).join("\n");
    expect(r.stderr).not.toMatch(/call-storm/);
    expect(results).toMatch(new RegExp(`port ${port} is not forwarded to this machine: 127\\.0\\.0\\.1:${port} is already in use`));
    expect(results).toMatch(/Use another port/);
    expect(results).toContain("Permission denied for WebFetch");
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("THE-PERSONS-OWN-SERVER");
  });
});
