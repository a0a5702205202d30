import { describe, expect, it } from "vitest";
import { EndingJudge } from "../../src/core/repair/endings.js";
import type { AssistantMessage } from "../../src/contract/index.js";

const say = (content: string | null, reasoning = ""): AssistantMessage => ({ role: "assistant", content, reasoning_content: reasoning });

describe("how a round without tool calls ends the turn", () => {
  it("completes a reply with an answer", () => {
    expect(new EndingJudge(3).judge("stop", say("All tests pass."))).toEqual({ kind: "complete" });
  });

  it("reminds the model once after an empty or whitespace-only reply, then stops with empty_reply", () => {
    const j = new EndingJudge(3);
    expect(j.judge("stop", say(" \n\n"))).toMatchObject({ kind: "again", code: "empty-reply" });
    expect(j.judge("stop", say(""))).toMatchObject({ kind: "stop", reason: "empty_reply" });
  });

  it("asks for the planned call or the answer when the reply was reasoning only", () => {
    const e = new EndingJudge(3).judge("stop", say(null, "I should read the config next."));
    expect(e).toMatchObject({ kind: "again", prompt: expect.stringMatching(/reasoning but no answer/) });
  });

  it("reminds once after a reply that stops where a call should follow, then stops with unfinished_reply", () => {
    const j = new EndingJudge(3);
    expect(j.judge("stop", say("Now let me read the file:"))).toMatchObject({ kind: "again", code: "unfinished-reply" });
    expect(j.judge("stop", say("Let me read it…"))).toMatchObject({ kind: "stop", reason: "unfinished_reply" });
  });

  it("does not take an ordinary closing sentence for an unfinished one", () => {
    expect(new EndingJudge(3).judge("stop", say("Let me know if you need anything else."))).toEqual({ kind: "complete" });
  });

  it("judges a later ending afresh once tools ran in between", () => {
    const j = new EndingJudge(3);
    j.judge("stop", say(""));
    j.progressed();
    expect(j.judge("stop", say(""))).toMatchObject({ kind: "again" });
  });

  it("spends at most two reminders in a turn, even when tool rounds come between (Reasonix#6617)", () => {
    const j = new EndingJudge(3);
    expect(j.judge("stop", say(null, "thinking"))).toMatchObject({ kind: "again" });
    j.progressed();
    expect(j.judge("stop", say(null, "thinking"))).toMatchObject({ kind: "again" });
    j.progressed();
    expect(j.judge("stop", say(null, "thinking"))).toMatchObject({ kind: "stop", reason: "empty_reply", error: expect.stringMatching(/after 2 reminders this turn/) });
  });

  it("continues a reply cut by the output limit, at most the given number of times", () => {
    const j = new EndingJudge(2);
    expect(j.judge("length", say("part 1"))).toMatchObject({ kind: "again", code: "continuation" });
    expect(j.judge("length", say("part 2"))).toMatchObject({ kind: "again", code: "continuation" });
    expect(j.judge("length", say("part 3"))).toMatchObject({ kind: "stop", reason: "output_truncated" });
  });
});
