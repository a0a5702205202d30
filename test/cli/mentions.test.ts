import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Chain } from "../../src/core/chain.js";
import { expandMentions, findMentions } from "../../src/lib/mentions.js";
import { registerPlugin, type PluginHost } from "../../src/core/plugins.js";
import mentions from "../../mods/mentions/index.js";
import { registerPermissionGate } from "../../src/cli/permissions/index.js";
import type { GateDecision } from "../../src/contract/index.js";
import { rulesOf } from "../permissions/helpers.js";
import { tempDirs, writeTree, type Dirs } from "./helpers.js";

/** What the mod showed the person (`ui.render`), newest last. */
let rendered: string[] = [];

/** The mentions mod on `chain`, as assembly loads it (builtin tier), with a front end that keeps
 *  what it is shown. */
async function registerMentions(chain: Chain, root: string): Promise<void> {
  rendered = [];
  chain.setCore("ui.render", (e) => void (e.item.kind === "text" && rendered.push(e.item.text)));
  const none = (): undefined => undefined;
  const host: PluginHost = { chain, root, home: root, trusted: true, addTool: none, removeTool: none, config: () => ({}), log: none };
  const load = await registerPlugin(host, mentions, "builtin", "mods/mentions");
  if (!load.ok) throw new Error(`mods/mentions: ${load.error}`);
}

let d: Dirs;
beforeEach(() => {
  d = tempDirs();
  writeTree(d.root, {
    "src/a.ts": "export const a = 1;\nexport const b = 2;\n",
    "src/lib/util.ts": "export {};\n",
    "src/gen/out.js": "generated\n",
    "src/.gitignore": "gen/\n",
    "README.md": "# Demo\n",
  });
});
afterEach(() => d.cleanup());

const expand = (text: string, o: { maxBytes?: number; maxEntries?: number } = {}) => expandMentions(text, { root: d.root, ...o });

describe("@path attaches a file", () => {
  it("keeps the prompt as typed and attaches the file after it, with its path and line count", async () => {
    const r = await expand("Explain @src/a.ts please");
    expect(r.notes).toEqual([]);
    expect(r.text).toBe('Explain @src/a.ts please\n\n<file path="src/a.ts" lines="2">\nexport const a = 1;\nexport const b = 2;\n</file>');
  });

  it("drops trailing punctuation that is not part of the path, and attaches a file mentioned twice once", async () => {
    const r = await expand("See @README.md. Then @README.md, again (@src/a.ts)");
    expect(r.text.match(/<file path="README.md"/g)).toHaveLength(1);
    expect(r.text).toContain('<file path="src/a.ts"');
  });

  it("does not hang on a FIFO: it is not attached, and said so", async () => {
    execFileSync("mkfifo", [join(d.root, "pipe.md")]);
    const r = await expand("Look at @pipe.md");
    expect(r.text).toBe("Look at @pipe.md");
    expect(r.notes.join("\n")).toMatch(/@pipe\.md: (a named pipe \(FIFO\), )?not a regular file; not attached/);
  });

  it("reads a quoted path with spaces", async () => {
    writeTree(d.root, { "my notes.txt": "hello\n" });
    const r = await expand('Summarise @"my notes.txt"');
    expect(r.text).toContain('<file path="my notes.txt" lines="1">\nhello\n</file>');
  });

  it("cuts a file larger than the bound at a line, with a marker saying what was left out", async () => {
    writeTree(d.root, { "big.txt": Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n") + "\n" });
    const r = await expand("@big.txt", { maxBytes: 50 });
    expect(r.text).toContain('<file path="big.txt" lines="1-7 (cut)">\nline 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n');
    expect(r.text).toContain("[… cut by deepcode: showed lines 1–7, 49 of 792 bytes; read the rest with the Read tool from line 8]\n</file>");
  });

  it("does not attach a binary file, and says so", async () => {
    writeTree(d.root, { "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]) });
    const r = await expand("look at @logo.png");
    expect(r.text).toBe("look at @logo.png");
    expect(r.notes).toEqual(["@logo.png: a binary file; not attached"]);
  });
});

describe("@dir/ attaches a listing", () => {
  it("lists the folder's entries depth first, folders with a slash, .gitignore respected", async () => {
    const r = await expand("What is in @src/");
    expect(r.text).toContain('<directory path="src/" entries="4">\n.gitignore\na.ts\nlib/\nlib/util.ts\n</directory>');
    expect(r.text).not.toContain("gen/");
  });

  it("stops a long listing at the bound and says so", async () => {
    writeTree(d.root, Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`many/f${i}.txt`, ""])));
    const r = await expand("@many/", { maxEntries: 3 });
    expect(r.text).toContain('<directory path="many/" entries="3+">\nf0.txt\nf1.txt\nf2.txt\n[… listing stopped at 3 entries; use Glob for the rest]\n</directory>');
  });
});

describe("the total bound on attachments", () => {
  it("stops attaching once a prompt carries the total budget, with a note for each file left out", async () => {
    writeTree(d.root, { "one.txt": "1".repeat(100) + "\n", "two.txt": "2".repeat(100) + "\n" });
    const r = await expandMentions("@one.txt @two.txt", { root: d.root, maxTotalBytes: 100 });
    expect(r.text).toContain('<file path="one.txt"');
    expect(r.text).not.toContain('<file path="two.txt"');
    expect(r.notes).toEqual(["@two.txt: not attached; this prompt's attachments reached their limit (100 bytes)"]);
  });
});

describe("what is left as text", () => {
  it("leaves a path that does not exist as text, with a note", async () => {
    const r = await expand("Fix @src/missing.ts. And @Override");
    expect(r.text).toBe("Fix @src/missing.ts. And @Override");
    expect(r.notes).toEqual(["@src/missing.ts: no such file or folder in the project; left as text"]);
  });

  it("does not attach a path outside the project root, through .. or an absolute path", async () => {
    writeTree(d.userHome, { "secret.txt": "s3cret\n" });
    const r = await expand(`@../person/secret.txt and @${join(d.userHome, "secret.txt")}`);
    expect(r.text).not.toContain("s3cret");
    expect(r.notes).toEqual([
      `@../person/secret.txt: outside the project root (it resolves to ${join(d.userHome, "secret.txt")}); not attached`,
      `@${join(d.userHome, "secret.txt")}: outside the project root (it resolves to ${join(d.userHome, "secret.txt")}); not attached`,
    ]);
  });

  it("does not attach a file or folder outside the root reached through a symlink inside it", async () => {
    writeTree(d.userHome, { "secret.txt": "s3cret\n" });
    symlinkSync(join(d.userHome, "secret.txt"), join(d.root, "link.txt"));
    symlinkSync(d.userHome, join(d.root, "linkdir"));
    const r = await expand("@link.txt @linkdir/ @linkdir/secret.txt");
    expect(r.text).not.toContain("s3cret");
    expect(r.text).not.toContain("<directory");
    expect(r.notes).toEqual([
      `@link.txt: outside the project root (it resolves to ${join(d.userHome, "secret.txt")}); not attached`,
      `@linkdir/: outside the project root (it resolves to ${d.userHome}); not attached`,
      `@linkdir/secret.txt: outside the project root (it resolves to ${join(d.userHome, "secret.txt")}); not attached`,
    ]);
  });

  it("attaches a file reached through a symlink that stays inside the root", async () => {
    symlinkSync(join(d.root, "src", "a.ts"), join(d.root, "alias.ts"));
    const r = await expand("@alias.ts");
    expect(r.text).toContain('<file path="src/a.ts" lines="2">');
  });

  it("leaves emails, @ inside words and mentions in code alone", async () => {
    mkdirSync(join(d.root, "b.c"));
    const text = "mail a@b.c or me@src/a.ts; `@src/a.ts` and\n```\n@src/a.ts\n```";
    expect(findMentions(text)).toEqual([]);
    expect(await expand(text)).toEqual({ text, notes: [] });
  });
});

/** A chain with the permission gate (rules as a settings layer would give them) and the core
 *  prompt answer, as assembly builds it. */
function gatedChain(layers: Parameters<typeof rulesOf>[0] = {}): Chain {
  const chain = new Chain();
  chain.setCore("prompt.submit", (e) => ({ text: e.text }));
  registerPermissionGate(chain, { rules: () => rulesOf(layers), env: () => ({ root: d.root, home: d.userHome, deepcodeHome: d.home, cwd: d.root }), managedBroken: false });
  return chain;
}

describe("the prompt.submit hook", () => {
  it("rewrites the submitted text with the attachments and returns the notes as context", async () => {
    const chain = gatedChain();
    await registerMentions(chain, d.root);
    const r = await chain.dispatch({ type: "prompt.submit", sessionId: "s1", text: "Read @src/a.ts and @nope.ts" });
    expect(r.text).toContain('<file path="src/a.ts" lines="2">');
    expect(r.context).toEqual(["@nope.ts: no such file or folder in the project; left as text"]);
    expect(rendered).toEqual(["@nope.ts: no such file or folder in the project; left as text"]);
    expect(chain.hooksFor("prompt.submit")).toEqual([{ tier: "builtin", owner: "mentions", pattern: "prompt.submit" }]);
  });

  it("passes a prompt without mentions through unchanged, with no context added", async () => {
    const chain = new Chain();
    chain.setCore("prompt.submit", (e) => ({ text: e.text, context: ["from the core"] }));
    await registerMentions(chain, d.root);
    expect(await chain.dispatch({ type: "prompt.submit", sessionId: "s1", text: "hello" })).toEqual({ text: "hello", context: ["from the core"] });
  });
});

describe("@-mentions obey the permission rules", () => {
  const submit = (chain: Chain, text: string) => chain.dispatch({ type: "prompt.submit", sessionId: "s1", text });

  it("does not attach a file a deny rule keeps from Read, and says why (the reproduction: a user deny of Read(.env))", async () => {
    writeTree(d.root, { ".env": "API_TOKEN=sk-live-123\n" });
    const chain = gatedChain({ user: { deny: ["Read(.env)"] } });
    await registerMentions(chain, d.root);
    const r = await submit(chain, "what is in @.env");
    expect(r.text).toBe("what is in @.env");
    expect(JSON.stringify(r)).not.toContain("sk-live-123");
    expect(r.context).toEqual([expect.stringMatching(/^@\.env: not attached: reading it is denied \(.*Read\(\.env\), user/)]);
  });

  it("does not attach a secret that a Read would ask for, and tells the model it can Read it (the person is asked then)", async () => {
    writeTree(d.root, { "config/.env.local": "DB_PASSWORD=hunter2\n" });
    const chain = gatedChain();
    await registerMentions(chain, d.root);
    const r = await submit(chain, "check @config/.env.local");
    expect(r.text).toBe("check @config/.env.local");
    expect(JSON.stringify(r)).not.toContain("hunter2");
    expect(r.context).toEqual([expect.stringMatching(/^@config\/\.env\.local: not attached: reading it needs approval \(.*\); the model can Read it, and you will be asked$/)]);
  });

  it("does not list a folder whose contents a deny rule covers", async () => {
    writeTree(d.root, { "private/plan.md": "secret plan\n" });
    const chain = gatedChain({ project: { deny: ["Read(private/**)"] } });
    await registerMentions(chain, d.root);
    const r = await submit(chain, "what is in @private/");
    expect(r.text).toBe("what is in @private/");
    expect(r.context?.[0]).toMatch(/^@private\/: not attached: reading it is denied/);
  });

  it("still attaches what the rules allow, next to what they do not", async () => {
    writeTree(d.root, { ".env": "TOKEN=x\n" });
    const chain = gatedChain({ user: { deny: ["Read(.env)"] } });
    await registerMentions(chain, d.root);
    const r = await submit(chain, "compare @src/a.ts with @.env");
    expect(r.text).toContain('<file path="src/a.ts" lines="2">');
    expect(r.text).not.toContain("TOKEN=x");
  });

  it("checks each mention as a Read through the whole chain, so hooks downstream of the gate see it and can refuse it", async () => {
    const chain = gatedChain();
    const seen: Array<{ tool: string; input: unknown; callId: string; readOnly: boolean | null }> = [];
    chain.on("user", "pre-tool-use", "tool.check", null, async (e): Promise<GateDecision> => {
      seen.push({ tool: e.tool, input: e.input, callId: e.callId, readOnly: e.readOnly });
      return { decision: "deny", reason: "the hook says no", by: "hook:pre-tool-use" };
    });
    await registerMentions(chain, d.root);
    const r = await submit(chain, "explain @src/a.ts");
    expect(seen).toEqual([{ tool: "Read", input: { file_path: join(d.root, "src/a.ts") }, callId: expect.stringMatching(/^mention-\d+$/), readOnly: true }]);
    expect(r.text).toBe("explain @src/a.ts");
    expect(r.context).toEqual(["@src/a.ts: not attached: reading it is denied (the hook says no)"]);
  });

  it("attaches nothing when the check itself fails: no gate, no hook answering, is a deny", async () => {
    const chain = new Chain();
    chain.setCore("prompt.submit", (e) => ({ text: e.text }));
    await registerMentions(chain, d.root);
    const r = await submit(chain, "explain @src/a.ts");
    expect(r.text).toBe("explain @src/a.ts");
    expect(r.context?.[0]).toMatch(/^@src\/a\.ts: not attached: reading it is denied/);
  });
});
