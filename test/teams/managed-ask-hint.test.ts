// The `-p` denial of a call the managed policy asks about (issue #42, item 8): it used to advise
// `--allowedTools`, which changes nothing (a managed ask beats every allow), so a person or a
// script following it went round in a loop. What `-p` now says, for the model and on stderr.
import { describe, expect, it } from "vitest";
import { Chain } from "../../src/core/chain.js";
import { nonInteractive } from "../../src/cli/assemble-steps.js";

async function denialFor(by: string | undefined): Promise<string> {
  const chain = new Chain();
  nonInteractive(chain);
  const ask = { type: "permission.ask" as const, sessionId: "s", callId: "c1", tool: "Bash", input: { command: "git push" }, reason: "a rule asks", preview: "git push", remember: "Bash(git push:*)", ...(by ? { by } : {}) };
  const r = await chain.dispatch(ask);
  expect(r.decision).toBe("deny");
  return r.reason ?? "";
}

describe("-p and a call the managed policy asks about", () => {
  it("says the managed policy asks and that nothing the person passes lifts it — no --allowedTools advice", async () => {
    const why = await denialFor("Bash(git push:*) (managed)");
    expect(why).toMatch(/the managed policy asks about it \(Bash\(git push:\*\)\), and nothing you pass or set lifts that/);
    expect(why).not.toContain("--allowedTools");
  });

  it("still names the flag for an ask no managed rule made (the default ask)", async () => {
    expect(await denialFor("default")).toContain("--allowedTools 'Bash(git push:*)'");
  });
});
