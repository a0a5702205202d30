// `transcript_path`: the session in Claude Code's JSONL format, so hooks written for Claude Code
// read it as they do there. Run `npx tsc -p tsconfig.json` first (the CLI runs from dist/).
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { call, cliRig, type CliRig } from "../e2e/helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

// A loop-until-promise Stop hook in the shape of ralph-wiggum's: a state file with YAML
// frontmatter, the last assistant message read from the transcript the way Claude Code's
// plugins read it (the last line holding "role":"assistant", its text blocks joined), and
// `decision: block` with the prompt to go round again. Strict bash: any step that fails exits
// non-zero (on a transcript of another shape, jq fails and the hook exits 5).
const LOOP_HOOK = `#!/bin/bash
set -euo pipefail
input=$(cat)
state=.claude/loop.local.md
[[ -f "$state" ]] || exit 0
front=$(sed -n '/^---$/,/^---$/{ /^---$/d; p; }' "$state")
round=$(echo "$front" | grep '^iteration:' | sed 's/iteration: *//')
promise=$(echo "$front" | grep '^completion_promise:' | sed 's/completion_promise: *//; s/^"\\(.*\\)"$/\\1/')
transcript=$(echo "$input" | jq -r '.transcript_path')
echo "$transcript" > transcript-path.txt
line=$(grep '"role":"assistant"' "$transcript" | tail -1)
said=$(echo "$line" | jq -r '.message.content | map(select(.type == "text")) | map(.text) | join("\\n")')
echo "$said" >> said.log
if echo "$said" | grep -qF "<promise>$promise</promise>"; then rm "$state"; exit 0; fi
prompt=$(awk '/^---$/{i++; next} i>=2' "$state")
sed -i "s/^iteration: .*/iteration: $((round + 1))/" "$state"
jq -n --arg p "$prompt" --arg m "round $((round + 1))" '{decision: "block", reason: $p, systemMessage: $m}'
`;

const STATE = `---
active: true
iteration: 1
max_iterations: 5
completion_promise: "DONE"
---
Make the failing test pass.
`;

/** The Claude Code transcripts deepcode wrote under its sessions folder. */
function claudeTranscripts(home: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (dir.endsWith("claude-code") && n.endsWith(".jsonl")) found.push(p);
    }
  };
  walk(join(home, "sessions"));
  return found;
}

describe("transcript_path", () => {
  it("lets a ralph-wiggum-shaped Stop hook read the last assistant message and loop until the promise", async () => {
    rig = await cliRig(
      { replies: [{ content: "I changed the assertion." }, { content: "The test passes now. <promise>DONE</promise>" }] },
      {
        ".deepcode/settings.json": JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "bash hooks/loop.sh" }] }] } }),
        "hooks/loop.sh": LOOP_HOOK,
        ".claude/loop.local.md": STATE,
      },
    );
    const r = await rig.run(["-p", "fix the test", "--trust-project", "--output-format", "json"]);
    expect(r.stderr).not.toMatch(/Stop hook .* exited/);
    expect(r.code).toBe(0);
    const root = rig.env.root;
    expect(readFileSync(join(root, "said.log"), "utf8").trim().split("\n")).toEqual(["I changed the assertion.", "The test passes now. <promise>DONE</promise>"]);
    expect(existsSync(join(root, ".claude/loop.local.md"))).toBe(false); // the loop ended itself
    const second = rig.sim.requests.filter((q) => q.path.endsWith("/chat/completions"))[1];
    expect(second.body).toContain("Make the failing test pass.");
    const session = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    const path = readFileSync(join(root, "transcript-path.txt"), "utf8").trim();
    expect(path.endsWith(join("claude-code", `${session}.jsonl`))).toBe(true);
    expect(path.startsWith(join(rig.env.home, "sessions"))).toBe(true);
  });

  it("holds the conversation as Claude Code's records, and never the API key", async () => {
    rig = await cliRig(
      { replies: [call("Bash", { command: "printenv DEEPSEEK_API_KEY; echo listed" }), { content: "Listed." }] },
      { ".deepcode/settings.json": JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] }, permissions: { allow: ["Bash(printenv:*)", "Bash(echo:*)"] } }) },
    );
    const r = await rig.run(["-p", "list the files", "--trust-project", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const session = (JSON.parse(r.stdout) as { session_id: string }).session_id;
    const files = claudeTranscripts(rig.env.home);
    expect(files.map((f) => f.endsWith(`${session}.jsonl`))).toEqual([true]);
    const text = readFileSync(files[0], "utf8");
    expect(text).not.toContain("sk-test-cli");
    expect(statSync(files[0]).mode & 0o777).toBe(0o600);
    const records = text.trim().split("\n").map((l) => JSON.parse(l) as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any -- records are read field by field
    const user = records.filter((x) => x.type === "user" && !x.isMeta && typeof x.message.content === "string");
    expect(user.map((x) => x.message.content)).toContain("list the files");
    const assistants = records.filter((x) => x.type === "assistant");
    // The reasoning deepcode keeps (it goes back with a tool call) as a thinking block, then the call.
    expect(assistants[0].message.content).toEqual([
      { type: "thinking", thinking: expect.any(String), signature: "" },
      { type: "tool_use", id: expect.any(String), name: "Bash", input: { command: "printenv DEEPSEEK_API_KEY; echo listed" } },
    ]);
    expect(assistants[assistants.length - 1].message).toMatchObject({ role: "assistant", type: "message", stop_reason: "end_turn" });
    expect(assistants[assistants.length - 1].message.content.filter((b: { type: string }) => b.type === "text")).toEqual([{ type: "text", text: "Listed." }]);
    const result = records.find((x) => x.type === "user" && Array.isArray(x.message.content));
    expect(result?.message.content[0]).toMatchObject({ type: "tool_result", tool_use_id: assistants[0].message.content[1].id });
    expect(String(result?.message.content[0].content)).toContain("listed");
    // One chain: each record's parent is the one before it.
    for (let i = 1; i < records.length; i++) expect(records[i].parentUuid).toBe(records[i - 1].uuid);
    expect(records.every((x) => x.sessionId === session && x.isSidechain === false)).toBe(true);
  });
});
