// Background jobs in the REPL, in a real terminal: /jobs lists them (id, state, runtime, output,
// command), /jobs kill ID stops one, /bashes is the same command; a job that ends between turns
// is said on screen at once, and the model hears of it in a note at its next turn — the cached
// prefix unchanged.
import { describe, expect, it } from "vitest";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "../repl/helpers.js";
import { eventually, processesRunning, uniqueSleep, type Chat } from "./helpers.js";

const repl = useRepl();
const bash = (command: string) => ({ tool_calls: [{ name: "Bash", arguments: { command, run_in_background: true } }] });

describe("/jobs", () => {
  it("lists the jobs, stops one, and the model hears at its next turn how each ended", async () => {
    const sleep = uniqueSleep();
    const t = await repl.open(
      {
        respond: (json: Chat) => {
          const last = json.messages.at(-1);
          if (last?.role === "user" && last.content === "start the server") return bash(`echo ready; ${sleep}`);
          if (last?.role === "user" && last.content === "run the check") return bash("sleep 1; exit 4");
          if (last?.role === "tool") return { content: "started it" };
          return { content: "noted" };
        },
      },
      {},
      { settings: { estimate: "show", permissions: { allow: ["Bash(sleep:*)", "Bash(echo:*)", "Bash(exit:*)"] } } },
    );
    enter(t, "start the server");
    await t.waitFor("started it");
    enter(t, "run the check");
    await t.waitFor(/started it[\s\S]*started it/);
    // The check ends on its own between turns: said on screen as it happens.
    await t.waitFor("! background job 2 (sleep 1; exit 4) exited with code 4");
    // Said above the prompt, which is drawn again with what was being typed.
    t.type("/jo");
    await t.waitFor(/exited with code 4\n› \/jo$/m);
    t.type("bs");
    t.press("Enter");
    const listed = await t.waitFor(/^1\s+running\s+\d+ s\s+6 chars\s+echo ready; sleep/m);
    expect(listed).toMatch(/^id\s+state\s+runtime\s+output\s+command$/m);
    expect(listed).toMatch(/^2\s+exited with code 4\s+\d+ s\s+0 chars\s+sleep 1; exit 4$/m);
    enter(t, "/jobs kill 1");
    await t.waitFor("stopped job 1 (echo ready; sleep");
    expect(await eventually(() => processesRunning(sleep).length === 0)).toBe(true);
    enter(t, "/bashes");
    await t.waitFor(/^1\s+stopped by the user\s+/m);
    enter(t, "what happened?");
    await t.waitFor("noted");
    const bodies = chatBodies(repl.sim.requests);
    const last = bodies.pop()!;
    const note = last.messages.filter((m) => m.role === "user").map((m) => String(m.content)).find((c) => c.includes("Background job"));
    expect(note).toContain("Background job 2 (`sleep 1; exit 4`) exited with code 4.");
    expect(note).toMatch(/Background job 1 \(`echo ready; sleep [\d.]+`\) stopped by the user; 6 chars of its output unread \(BashOutput\)\./);
    // Nothing of it changed the prefix: every request sent the same tools and system prompt.
    expect(new Set(bodies.concat(last).map((b) => JSON.stringify([b.messages[0], b.tools]))).size).toBe(1);
  });
});
