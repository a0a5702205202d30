// asyncRewake in the REPL, in a real terminal: a background hook that exits 2 while the person
// sits at the prompt wakes the model — a turn runs with what the hook said, without a key
// pressed — and what was typed on the line meanwhile is still there afterwards.
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chatBodies } from "../helpers/extension.js";
import { enter, useRepl } from "../repl/helpers.js";

const repl = useRepl();

describe("an asyncRewake hook in the REPL", () => {
  it("wakes the model when it exits 2 while the person waits at the prompt", async () => {
    // A background check after the turn (once): it reports when the test lets it (the go file).
    const check = "[ -f woke ] && exit 0; touch woke; while [ ! -f go ]; do sleep 0.1; done; echo 'the build broke in b.ts' >&2; exit 2";
    const hooks = { Stop: [{ hooks: [{ type: "command", command: check, asyncRewake: true }] }] };
    const t = await repl.open({ replies: [{ content: "first answer" }, { content: "fixing b.ts now" }] }, {}, { settings: { estimate: "show", hooks } });
    enter(t, "hello");
    await t.waitFor(/^first answer$/m);
    await t.waitFor(/^›\s*$/m);
    t.type("half typ");
    writeFileSync(join(repl.env.root, "go"), "");
    const s = await t.waitFor(/fixing b\.ts now/);
    expect(s).toContain("(woken by a background hook)");
    const bodies = chatBodies(repl.sim.requests);
    expect(bodies).toHaveLength(2);
    const last = bodies[1].messages.filter((m) => m.role === "user").pop();
    expect(String(last?.content)).toContain("the build broke in b.ts");
    console.log((await t.waitFor(/›\s*half typ\s*$/m))); // the line typed before the wake is back
  });
});
