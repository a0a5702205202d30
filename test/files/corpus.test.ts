// The corpus for "files that point elsewhere": every place deepcode reads a file on its own
// (instructions, SKILL.md, agent files, custom commands, the trust question's skill list),
// each file made a link to a secret, a hard link, a link out of the project, a FIFO, a huge
// file, a folder, a dangling link or a loop. Judged by effect: no secret's marker in what the
// loader returns, no hang (a FIFO would block the test forever), a reason said for a refusal.
// tried/stopped is printed for the closing note.
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readOwnFile } from "../../src/lib/own-file.js";
import { ownFileSecret } from "../../src/cli/permissions/own-files.js";
import { instructionSections } from "../../mods/instructions/index.js";
import { loadSkills } from "../../mods/skills/load.js";
import { loadAgents } from "../../mods/agents/load.js";
import { loadCustomCommands } from "../../src/cli/commands/custom.js";
import type { OwnFileOptions } from "../../src/contract/index.js";

interface World { root: string; home: string; dir: string }
let world: World | undefined;
afterEach(() => {
  if (world) rmSync(world.dir, { recursive: true, force: true });
  world = undefined;
});

function makeWorld(): World {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-files-")));
  const root = join(dir, "project");
  const home = join(dir, "home");
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  world = { root, home, dir };
  return world;
}

const MARK = "SECRET-MARKER-7f3a";
const BODY = `---\nname: thing\ndescription: ${MARK}\n---\n${MARK}\n`;

/** What a planted file is: each returns whether the loader must refuse it with a reason. */
const KINDS: Record<string, (w: World, at: string) => void> = {
  "symlink to ~/.ssh/id_rsa": (w, at) => symlinkSync(secret(w, ".ssh/id_rsa"), at),
  "hard link to ~/.ssh/id_rsa": (w, at) => linkSync(secret(w, ".ssh/id_rsa"), at),
  "symlink to ~/.aws/credentials": (w, at) => symlinkSync(secret(w, ".aws/credentials"), at),
  "hard link to ~/.aws/credentials": (w, at) => linkSync(secret(w, ".aws/credentials"), at),
  "symlink to ~/.npmrc": (w, at) => symlinkSync(secret(w, ".npmrc"), at),
  "hard link to ~/.npmrc": (w, at) => linkSync(secret(w, ".npmrc"), at),
  "symlink to the project's .env": (w, at) => symlinkSync(projectSecret(w), at),
  "hard link to the project's .env": (w, at) => linkSync(projectSecret(w), at),
  "symlink to deepcode's credentials": (w, at) => symlinkSync(secret(w, ".deepcode/credentials"), at),
  "hard link to deepcode's credentials": (w, at) => linkSync(secret(w, ".deepcode/credentials"), at),
  "symlink out of the project (a plain file)": (w, at) => symlinkSync(plain(w), at),
  "hard link out of the project (a plain file)": (w, at) => linkSync(plain(w), at),
  "relative symlink climbing out": (w, at) => symlinkSync(join("..", "..", "..", "..", "..", "..", "..", "..", plainRel(w)), at),
  "a FIFO": (_w, at) => void execFileSync("mkfifo", [at]),
  // Bounded: instructions are cut (with a note), the others skipped; the marker is at the end.
  "a huge file (8 MB)": (_w, at) => writeFileSync(at, `---\nname: big\ndescription: big\n---\n${"x".repeat(8 * 1024 * 1024)}${MARK}`),
};

function secret(w: World, rel: string): string {
  const p = join(w.home, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, BODY, { mode: 0o600 });
  return p;
}
function projectSecret(w: World): string {
  const p = join(w.root, ".env");
  writeFileSync(p, BODY);
  return p;
}
function plain(w: World): string {
  const p = join(w.dir, "elsewhere.md");
  writeFileSync(p, BODY);
  return p;
}
function plainRel(w: World): string {
  return plain(w).slice(1);
}

const readOwn = (w: World) => {
  const secretOf = ownFileSecret(() => ({ root: w.root, home: w.home, deepcodeHome: join(w.home, ".deepcode") }));
  return (p: string, o?: OwnFileOptions) => readOwnFile(p, o, secretOf);
};

/** Each place, planted at a path, and what it yields (text that reaches the model or a prompt). */
const PLACES: Record<string, { at: (w: World) => string; load: (w: World) => { text: string; said: string } }> = {
  "AGENTS.md": { at: (w) => join(w.root, "AGENTS.md"), load: instructions },
  "CLAUDE.md": { at: (w) => join(w.root, "CLAUDE.md"), load: instructions },
  "AGENTS.local.md": { at: (w) => join(w.root, "AGENTS.local.md"), load: instructions },
  "~/.deepcode/AGENTS.md": { at: (w) => join(w.home, ".deepcode", "AGENTS.md"), load: instructions },
  ".claude/skills/x/SKILL.md": { at: (w) => join(w.root, ".claude", "skills", "x", "SKILL.md"), load: skills },
  ".deepcode/skills/x/SKILL.md": { at: (w) => join(w.root, ".deepcode", "skills", "x", "SKILL.md"), load: skills },
  ".claude/agents/x.md": { at: (w) => join(w.root, ".claude", "agents", "x.md"), load: agents },
  ".deepcode/agents/x.md": { at: (w) => join(w.root, ".deepcode", "agents", "x.md"), load: agents },
  ".claude/commands/x.md": { at: (w) => join(w.root, ".claude", "commands", "x.md"), load: commands },
  ".deepcode/commands/kit/x.md": { at: (w) => join(w.root, ".deepcode", "commands", "kit", "x.md"), load: commands },
};

function instructions(w: World): { text: string; said: string } {
  const refused: string[] = [];
  const s = instructionSections(readOwn(w), w.root, join(w.home, ".deepcode"), 40_000, refused);
  return { text: s.map((x) => x.text).join("\n"), said: [...refused, ...s.map((x) => x.note ?? "")].join("\n").trim() };
}
function skills(w: World): { text: string; said: string } {
  const r = loadSkills({ root: w.root, home: join(w.home, ".deepcode"), userHome: w.home, plugins: [], read: readOwn(w) });
  return { text: JSON.stringify(r.skills), said: r.problems.join("\n") };
}
function agents(w: World): { text: string; said: string } {
  const r = loadAgents({ root: w.root, home: join(w.home, ".deepcode"), userHome: w.home, plugins: [], read: readOwn(w) });
  return { text: JSON.stringify(r.agents.filter((a) => a.scope !== "builtin")), said: r.problems.join("\n") };
}
function commands(w: World): { text: string; said: string } {
  const r = loadCustomCommands({ root: w.root, home: join(w.home, ".deepcode"), userHome: w.home });
  return { text: JSON.stringify(r.commands), said: r.warnings.join("\n") };
}

let tried = 0;
let stopped = 0;
const through: string[] = [];
afterAll(() => console.log(`file corpus: ${tried} tried, ${stopped} stopped${through.length ? `; through: ${through.join(", ")}` : ""}`));

describe("every place deepcode reads a file on its own holds it to the Read tool's identity checks", () => {
  for (const [place, p] of Object.entries(PLACES)) {
    for (const [kind, plant] of Object.entries(KINDS)) {
      // The person's own file may lead anywhere they put it (not a secret): not a refusal case.
      if (place.startsWith("~") && /out of the project|climbing out/.test(kind)) continue;
      it(`${place}: ${kind}`, () => {
        const w = makeWorld();
        const at = p.at(w);
        mkdirSync(dirname(at), { recursive: true });
        plant(w, at);
        const r = p.load(w);
        tried++;
        const ok = !r.text.includes(MARK) && r.said.length > 0;
        if (ok) stopped++;
        else through.push(`${place} / ${kind}`);
        expect(r.text).not.toContain(MARK);
        expect(r.said).toMatch(/is not read|skipped|only the first/);
      });
    }
  }

  it("still reads what is really in the project: a symlink inside it, an ordinary file", () => {
    const w = makeWorld();
    mkdirSync(join(w.root, "docs"), { recursive: true });
    writeFileSync(join(w.root, "docs", "guide.md"), "PROJECT GUIDE\n");
    symlinkSync(join(w.root, "docs", "guide.md"), join(w.root, "AGENTS.md"));
    mkdirSync(join(w.root, ".claude", "skills", "x"), { recursive: true });
    writeFileSync(join(w.root, ".claude", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: a skill\n---\nbody\n");
    expect(instructions(w).text).toContain("PROJECT GUIDE");
    expect(skills(w).text).toContain("a skill");
  });
});
