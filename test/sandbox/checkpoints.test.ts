// Issue 21, hole 4: the checkpoints a destructive command runs after hold copies of what it
// touches (a `.env` it deletes included). A sandboxed command must not read those copies, nor
// change them so that /undo restores its content: the store lives in deepcode's home, hidden —
// also when the workspace itself lies inside that home (a plugin developed in place) — and a
// changed object is refused rather than restored. Real bash in real bubblewrap for the first
// two; skipped where bubblewrap cannot run.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { CheckpointStore } from "../../mods/checkpoints/store.js";
import { loadSandbox } from "./harness.js";

const available = sandboxStatus().active;
const SECRET = Buffer.from("API_KEY=sk-live-checkpointed\n");
const SESSION = "20261202-000000-abcdef";

let base: string;
let home: string;
let dcHome: string;
beforeEach(() => {
  // Not under /tmp: the sandbox empties /tmp, which would hide the store whatever the mounts.
  base = realpathSync(mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "deepcode-ckpt-box-")));
  home = join(base, "home");
  dcHome = join(base, "dc-home");
  mkdirSync(home);
  mkdirSync(join(dcHome, "sessions", "proj-key"), { recursive: true });
  writeFileSync(join(dcHome, "trust.json"), "{}\n");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A checkpoint of `.env`, as the checkpoints mod saves it before `rm .env` runs. */
function checkpoint(): { store: CheckpointStore; hash: string; objects: string } {
  const store = new CheckpointStore(join(dcHome, "sessions", "proj-key"), SESSION, 10_000_000);
  const hash = store.save(SECRET);
  return { store, hash, objects: join(dcHome, "sessions", "proj-key", `${SESSION}.checkpoints`, "objects") };
}

const ATTACK = (objects: string, hash: string): string =>
  [`cat ${objects}/* `, `grep -r sk-live ${dcHome}`, `find ${dcHome} -type f`, `echo EVIL > ${objects}/${hash}`, `echo '{"trusted":true}' > ${dcHome}/trust.json`, "true"].join("; ");

describe.skipIf(!available)("checkpoint copies out of a sandboxed command's reach (real bwrap)", () => {
  it.each([
    ["the workspace beside deepcode's home", (): string => join(base, "ws")],
    ["the workspace inside deepcode's home (a plugin developed in place)", (): string => join(dcHome, "plugins", "dev", "my-plugin")],
  ])("%s: the saved .env is neither read nor changed, /undo's copy stays intact", async (_name, where) => {
    const root = where();
    mkdirSync(root, { recursive: true });
    const { store, hash, objects } = checkpoint();
    const box = loadSandbox({ root, home, deepcodeHome: dcHome });
    const r = await box.run(ATTACK(objects, hash));
    expect(r.stdout).not.toContain("sk-live");
    expect(r.stdout).not.toContain(SESSION);
    expect(store.read(hash).equals(SECRET)).toBe(true);
    expect(readFileSync(join(dcHome, "trust.json"), "utf8")).toBe("{}\n");
  });
});

describe("the checkpoint store's objects", () => {
  it("refuses to restore an object whose bytes no longer match its name", () => {
    const { store, hash, objects } = checkpoint();
    writeFileSync(join(objects, hash), "API_KEY=attacker-chosen\n");
    expect(() => store.read(hash)).toThrow(/changed since it was saved/);
  });
});
