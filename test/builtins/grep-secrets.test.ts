// Grep never reads what a Read would ask for: files named like secrets (.env…, private keys, key
// files), the home folder's credential folders and deepcode's credentials — through rg and
// through the built-in search alike, saying how many it left out. The home folder here is a
// temporary one, handed to the tool (nothing touches the real home).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRg } from "../../src/builtins/index.js";
import { createGrepTool } from "../../src/builtins/grep.js";
import { SECRET_NAME_GLOBS, secretFilter } from "../../src/builtins/grep-secrets.js";
import { globMatch } from "../../src/lib/glob-match.js";
import { secretNameReason } from "../../src/contract/protected.js";
import type { ToolOutput } from "../../src/contract/index.js";
import { session, tempDir, writeTree } from "./helpers.js";

const rg = findRg();
const engines: Array<[string, string | null]> = [["the built-in search", null]];
if (rg) engines.push(["rg", rg]);

interface Box {
  root: string;
  home: string;
  deepcodeHome: string;
  grep(input: Record<string, unknown>, rgPath: string | null): Promise<ToolOutput>;
}

/** A project with secrets in it, a home folder with credential folders, deepcode's home elsewhere. */
function box(): Box {
  const base = tempDir();
  const root = join(base, "ws");
  const home = join(base, "home");
  const deepcodeHome = join(base, "dc-home");
  writeTree(root, {
    ".gitignore": ".env\n",
    ".env": "API_TOKEN=sk-live-123\n",
    ".env.example": "API_TOKEN=\n",
    ".envrc": "export API_TOKEN=sk-direnv-456\n",
    "config/.env.production": "API_TOKEN=sk-prod-789\n",
    "keys/id_rsa": "API_TOKEN in a private key\n",
    "keys/id_rsa.pub": "API_TOKEN in a public key\n",
    "certs/server.KEY": "API_TOKEN in a key file\n",
    "src/app.ts": "const t = process.env.API_TOKEN;\n",
  });
  writeTree(home, {
    ".ssh/id_ed25519": "PRIVATE KEY b3BlbnNzaC1rZXk\n",
    ".ssh/config": "Host PRIVATE\n",
    ".config/gcloud/credentials.db": "PRIVATE gcloud\n",
    ".config/other/settings": "PRIVATE but not a secret\n",
    "notes.txt": "PRIVATE notes\n",
  });
  writeTree(deepcodeHome, { credentials: "DEEPSEEK_API_KEY=PRIVATE-dc\n" });
  return {
    root,
    home,
    deepcodeHome,
    grep: (input, rgPath) => createGrepTool(() => rgPath, () => ({ home, deepcodeHome })).run(input as never, session({ root, rgPath }).ctx()),
  };
}

describe.each(engines)("Grep through %s leaves secrets out", (_name, rgPath) => {
  it("does not read a git-ignored .env that a glob names (the reproduction), and says it left it out", async () => {
    const b = box();
    const r = await b.grep({ pattern: "TOKEN", glob: ".env", output_mode: "content" }, rgPath);
    expect(r.content).not.toContain("sk-live-123");
    expect(r.content).toMatch(/^No matches found\n\(Not searched: 1 file that may hold secrets — \.env\. Grep never reads .*Read one by name if you must: reading a secret asks the person\.\)$/);
    expect(r.isError).toBeFalsy();
    expect(r.meta?.skippedSecrets).toBe(1);
  });

  it("searches the project without the secrets in it", async () => {
    const b = box();
    const r = await b.grep({ pattern: "TOKEN" }, rgPath);
    expect(r.content.split("\n")).toEqual(["Found 3 files", ".env.example", "keys/id_rsa.pub", "src/app.ts"]);
  });

  it("lists the files it left out when it found nothing, since the answer may be in one of them", async () => {
    const b = box();
    const r = await b.grep({ pattern: "sk-live" }, rgPath);
    expect(r.content.split("\n")).toEqual([
      "No files found",
      expect.stringMatching(/^\(Not searched: 4 files that may hold secrets — \.envrc, certs\/server\.KEY, config\/\.env\.production, keys\/id_rsa\. /),
    ]);
    expect(r.content).not.toContain("sk-live-123");
  });

  it("does not read the home folder's credential folders or deepcode's credentials when it searches them (the reproduction searched ~)", async () => {
    const b = box();
    for (const path of [b.home, join(b.home, "..")]) {
      const r = await b.grep({ path, pattern: "PRIVATE", output_mode: "content" }, rgPath);
      expect(r.content).not.toMatch(/b3BlbnNzaC1rZXk|Host PRIVATE|PRIVATE gcloud|PRIVATE-dc/);
      expect(r.content).toContain(`${join(b.home, "notes.txt")}:1:PRIVATE notes`);
      expect(r.content).toContain(`${join(b.home, ".config/other/settings")}:1:PRIVATE but not a secret`);
    }
    const r = await b.grep({ path: b.home, pattern: "only-in-the-key-b3Blbn" }, rgPath);
    expect(r.content).toMatch(/\(Not searched: 3 files that may hold secrets — .*\.config\/gcloud\/credentials\.db, .*\.ssh\/config, .*\.ssh\/id_ed25519\. /);
  });

  it("does not read a secret folder or file named as the search path", async () => {
    const b = box();
    const inSsh = await b.grep({ path: join(b.home, ".ssh"), pattern: "PRIVATE", output_mode: "content" }, rgPath);
    expect(inSsh.content).toMatch(/^No matches found\n\(Not searched: 2 files/);
    const file = await b.grep({ path: ".env", pattern: "TOKEN", output_mode: "content" }, rgPath);
    expect(file.content).toMatch(/^Not searched: \.env may hold secrets \(\.env files usually hold secrets\)\. Grep never reads/);
    expect(file.content).not.toContain("sk-live-123");
    const creds = await b.grep({ path: join(b.deepcodeHome, "credentials"), pattern: "PRIVATE", output_mode: "content" }, rgPath);
    expect(creds.content).toMatch(/^Not searched: .*credentials may hold secrets \(.* is deepcode's home /);
  });

  it("adds no note when nothing was left out", async () => {
    const b = box();
    const r = await b.grep({ pattern: "process", path: "src" }, rgPath);
    expect(r.content).toBe("Found 1 file\nsrc/app.ts");
  });
});

describe.skipIf(rg === null)("rg and the built-in search leave out the same files and say so alike", () => {
  const queries: Array<Record<string, unknown>> = [
    { pattern: "TOKEN" },
    { pattern: "TOKEN", output_mode: "content" },
    { pattern: "TOKEN", output_mode: "count" },
    { pattern: "TOKEN", glob: "*.{KEY,ts}" },
    { pattern: "TOKEN", glob: "!keys/**" },
    { pattern: "TOKEN", glob: ".env*", output_mode: "content" },
    { pattern: "TOKEN", type: "ts" },
    { pattern: "PRIVATE", path: "HOME", output_mode: "content" },
    { pattern: "PRIVATE", path: "HOME/.config", output_mode: "count" },
    { pattern: "PRIVATE", path: "BASE" },
  ];
  for (const q of queries) {
    it(`for ${JSON.stringify(q)}`, async () => {
      const b = box();
      const input = { ...q, ...(typeof q.path === "string" ? { path: q.path.replace("HOME", b.home).replace("BASE", join(b.root, "..")) } : {}) };
      const viaRg = await b.grep(input, rg);
      const builtin = await b.grep(input, null);
      expect(viaRg.meta?.engine).toBe("rg");
      expect(builtin.content).toBe(viaRg.content);
      expect(builtin.meta?.skippedSecrets).toBe(viaRg.meta?.skippedSecrets);
    });
  }
});

/** Names around every pattern's edges, and random names from the letters the patterns use. */
function tricky(): string[] {
  const names = [
    ".env", ".env.", ".env.e", ".env.ex", ".env.example", ".env.examplex", ".env.exampl", ".env.exbmple", ".env.sample", ".env.samples",
    ".env.template", ".env.templat", ".env.templatf", ".envrc", ".env-prod", ".env.local", ".en", "env", "x.env", ".Env",
    "id_rsa", "id_rsa.pub", "id_rsa.pubx", "id_rsapub", "id_rsa_pub", "id_rsa.pu", "id_rsab", "id_rsaub", "id_rsa.old", "id_rsa2",
    "id_ed25519_sk", "id_ed25519_sk.pub", "id_ecdsa", "id_dsa.pub", "xid_rsa", "a.pem", "a.PEM", "a.Pem", ".pem", "pem",
    "a.pem.bak", "a.key", "a.keys", "monkey", "a.p12", "a.P12", "a.pfx", "a.keystore", "a.jks", "a.JKS", "readme.md",
  ];
  let seed = 42;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const letters = ".envxamplstidrubkyEP_";
  for (let i = 0; i < 400; i++) {
    const starts = [".env", "id_rsa", "id_ed25519", ""];
    let n = starts[next() % starts.length];
    const len = next() % 9;
    for (let j = 0; j < len; j++) n += letters[next() % letters.length];
    if (n !== "" && n !== "." && n !== ".." && !names.includes(n)) names.push(n);
  }
  return names;
}

describe("the secret name globs and the contract's names are one list", () => {
  it("match exactly the names the contract calls secrets, by our glob matcher", () => {
    for (const n of tricky()) expect(SECRET_NAME_GLOBS.some((g) => globMatch(g, n)), n).toBe(secretNameReason(n) !== null);
  });

  it.skipIf(rg === null)("match exactly those names in rg itself", () => {
    const dir = tempDir();
    const names = tricky();
    for (const n of names) writeFileSync(join(dir, n), "x\n");
    const args = ["--files", "--no-config", "--hidden", "--no-ignore", ...SECRET_NAME_GLOBS.flatMap((g) => ["--glob", `!${g}`])];
    const kept = execFileSync(rg!, args, { cwd: dir, encoding: "utf8" }).trim().split("\n").filter((l) => l !== "");
    expect(kept.sort()).toEqual(names.filter((n) => secretNameReason(n) === null).sort());
  });

  it("leave a folder's place rules to the places: a folder only named like ~/.ssh elsewhere is searched", () => {
    const base = tempDir();
    mkdirSync(join(base, "ws", "fixtures", ".ssh"), { recursive: true });
    const f = secretFilter(join(base, "ws"), { home: join(base, "home") });
    expect(f.reason(join(base, "ws", "fixtures", ".ssh", "known_hosts"))).toBeNull();
    expect(f.reason(join(base, "home", ".ssh", "known_hosts"))).toBe("~/.ssh holds credentials");
    expect(f.reason(join(base, "home", ".deepcode", "credentials"))).toMatch(/^~\/\.deepcode is deepcode's home /);
  });
});

describe("a walked path is found in a secret place by its folders (the walk asks about every entry)", () => {
  it("finds the place at any depth, in any spelling of the path, and nothing beside it", () => {
    const base = tempDir();
    const home = join(base, "home");
    const f = secretFilter(join(base, "ws"), { home });
    const ssh = "~/.ssh holds credentials";
    expect(f.reason(`${home}/.ssh`)).toBe(ssh);
    expect(f.reason(`${home}/.ssh/a/b/c/known_hosts`)).toBe(ssh);
    expect(f.reason(`${home}/.config/gcloud/legacy/x.db`)).toMatch(/gcloud/);
    for (const odd of [`${home}//.ssh/known_hosts`, `${home}/./.ssh/known_hosts`, `${home}/x/../.ssh/known_hosts`, `${home}/.ssh/`]) expect(f.reason(odd), odd).toBe(ssh);
    for (const not of [`${home}/.sshx/known_hosts`, `${home}/.ss`, `${home}/notes.txt`, `${home}`, `${base}/ws/home/.ssh/known_hosts`, "/"]) expect(f.reason(not), not).toBeNull();
    // The name rules still apply outside the places.
    expect(f.reason(`${base}/ws/.env`)).not.toBeNull();
  });
});

describe("Glob lists names, never contents, so it lists secrets' names (a Read of one asks)", () => {
  it("lists .env and keys/id_rsa", async () => {
    const b = box();
    const r = await session({ root: b.root }).call("Glob", { pattern: "**/*" });
    expect(r.content.split("\n")).toEqual(expect.arrayContaining([".env.example", ".envrc", "keys/id_rsa"]));
  });
});
