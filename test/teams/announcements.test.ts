// `companyAnnouncements` (Claude Code's key, usually in the managed policy): the REPL shows one of
// them under the banner at each start, in a real terminal.
import { describe, expect, it } from "vitest";
import { useRepl } from "../repl/helpers.js";

const repl = useRepl();

describe("company announcements", () => {
  it("shows the announcement under the banner when the REPL starts", async () => {
    const t = await repl.open({ default: { content: "hi" } }, {}, { settings: { estimate: "show", companyAnnouncements: ["ACME: read go/ai-policy before you push"] } });
    expect(t.screen()).toContain("ACME: read go/ai-policy before you push");
  });

  it("shows nothing of the kind without the setting (the test can tell)", async () => {
    const t = await repl.open({ default: { content: "hi" } });
    expect(t.screen()).not.toContain("ACME");
  });
});
