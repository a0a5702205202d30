// `/rewind` in the REPL, in a real terminal: the list of turns (prompt, files, cost), the
// person's choice of turn and of what to rewind, the next request extending the chosen turn's
// (a cache hit, no unexpected miss), and `-c` in a new process going on from the rewound state.
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { enter, useRepl } from "../repl/helpers.js";
import { turnScript } from "./helpers.js";

const repl = useRepl();
const ARGS = '--allowedTools "Write,Bash"';

/** A REPL on the turn script, with turns 1…n done. */
async function turns(n: number) {
  const t = await repl.open(turnScript(), { "shared.txt": "line0\n" }, { args: ARGS });
  for (let k = 1; k <= n; k++) {
    enter(t, `turn ${k}`);
    await t.waitFor(new RegExp(`done ${k}[\\s\\S]*^›\\s*$`, "m"));
  }
  return t;
}

describe("/rewind in the REPL", () => {
  it("lists the turns, goes back to turn 2 of 5 (files and conversation), and the next prompt extends turn 2's request", async () => {
    const t = await turns(5);
    enter(t, "/rewind");
    const list = await t.waitFor("? Rewind to the end of which turn?");
    for (let k = 1; k <= 5; k++) expect(list).toMatch(new RegExp(`^\\s+${k}  turn ${k}\\s+2 files\\s+\\$0\\.\\d{4}$`, "m"));
    await t.waitFor(/turn\* \(integer, 0–5\)/); // one step: the turn number is the answer
    t.type("2");
    t.press("Enter");
    await t.waitFor("[b] both   [f] files   [c] conversation");
    t.type("b");
    const s = await t.waitFor(/conversation rewound to the end of turn 2: 3 later turns left it[\s\S]*^›\s*$/m);
    expect(s).toMatch(/f3\.txt\s+removed \(created in turn 3\)/);
    expect(readFileSync(join(repl.env.root, "shared.txt"), "utf8")).toBe("line0\nline1\nline2\n");
    expect(existsSync(join(repl.env.root, "f3.txt"))).toBe(false);

    const billed = () => repl.sim.requests.filter((r) => r.usage);
    const turn2 = billed()[3];
    enter(t, "turn 6");
    await t.waitFor(/done 6[\s\S]*^›\s*$/m);
    const first6 = billed()[10];
    const a = JSON.parse(turn2.body) as { messages: unknown[] };
    const b = JSON.parse(first6.body) as { messages: unknown[] };
    expect(b.messages.slice(0, a.messages.length)).toEqual(a.messages);
    expect(first6.usage!.prompt_cache_hit_tokens).toBeGreaterThanOrEqual(Math.floor(turn2.usage!.prompt_tokens / 64) * 64);
    expect(t.screen()).not.toMatch(/unexpected cache miss|cache lost/);
    expect(t.screen()).toMatch(/cache: rewind to turn 2; this request re-read \d+ tokens/);

    // A new process goes on from the rewound state: turns 1, 2 and 6.
    t.press("C-d");
    await t.waitFor(/Resume with: deepcode -r/);
    const again = await repl.start(`-c ${ARGS}`, { loaded: false });
    const shown = await again.waitFor(/── earlier in this session ──[\s\S]*──\n[\s\S]*^›\s*$/m);
    const earlier = shown.slice(shown.indexOf("── earlier in this session ──"));
    expect(earlier).toContain("› turn 2");
    expect(earlier).toContain("› turn 6");
    expect(earlier).not.toContain("› turn 3");
    enter(again, "turn 7");
    await again.waitFor(/done 7/);
    const last = JSON.parse(billed().at(-2)!.body) as { messages: Array<{ role: string; content: string }> };
    expect(last.messages.filter((m) => m.role === "user" && /^turn \d$/.test(m.content)).map((m) => m.content)).toEqual(["turn 1", "turn 2", "turn 6", "turn 7"]);
  });

  it("rewinds only the conversation when asked, and says which turns' file changes stay", async () => {
    const t = await turns(3);
    enter(t, "/rewind 1 conversation");
    await t.waitFor("files are as they are now: turns 2, 3 changed some (/rewind 1 files puts them back)");
    expect(readFileSync(join(repl.env.root, "shared.txt"), "utf8")).toBe("line0\nline1\nline2\nline3\n");
  });
});
