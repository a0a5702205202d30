// Session folders keyed without collisions (issue 22: the projects x/acme-api and x/acme/api
// shared one session folder, so `-c` in one resumed the other), and the sessions written under
// the old key still found.
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { legacySessionFolderKey, sessionFolderKey } from "../../src/core/session/folder-key.js";
import { SessionStore } from "../../src/core/session/store.js";
import { History } from "../../src/cli/repl/history.js";
import { cliRig, type CliRig } from "../e2e/helpers.js";

let home = "";
let rig: CliRig | undefined;
afterEach(async () => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = "";
  await rig?.close();
  rig = undefined;
});

describe("project keys", () => {
  it("tell apart every pair of roots the readable part alone confused (corpus)", () => {
    const PAIRS: Array<[string, string]> = [
      ["/x/acme-api", "/x/acme/api"],
      ["/x/acme-api", "/x/acme.api"],
      ["/x/acme_api", "/x/acme api"],
      ["/home/me/app", "/home/me-app"],
      ["/srv/é", "/srv/ü"],
      ["/a/b", "/a-b"],
      ["/p/" + "x".repeat(300), "/p/" + "x".repeat(299) + "y"],
    ];
    let stopped = 0;
    for (const [a, b] of PAIRS) {
      if (sessionFolderKey(a) !== sessionFolderKey(b)) stopped++;
      expect(sessionFolderKey(a).length).toBeLessThan(200);
    }
    expect(stopped).toBe(PAIRS.length);
    expect(PAIRS.filter(([a, b]) => legacySessionFolderKey(a) === legacySessionFolderKey(b)).length).toBeGreaterThanOrEqual(6);
    expect(sessionFolderKey("/home/me/app")).toMatch(/^-home-me-app-[0-9a-f]{12}$/);
  });

  it("move a project's sessions from the old folder, leaving another project's there", () => {
    home = mkdtempSync(join(tmpdir(), "deepcode-keys-"));
    const old = join(home, "sessions", legacySessionFolderKey("/x/acme-api"));
    mkdirSync(join(old, "20260101-000000-aaaaaa"), { recursive: true });
    const session = (id: string, root: string) => writeFileSync(join(old, `${id}.jsonl`), [{ t: "session", id, root, model: "m", created: "2026-01-01T00:00:00Z", version: "t" }, { t: "msg", m: { role: "user", content: `hello from ${root}` } }].map((r) => JSON.stringify(r)).join("\n") + "\n");
    session("20260101-000000-aaaaaa", "/x/acme-api");
    writeFileSync(join(old, "20260101-000000-aaaaaa", "sub.jsonl"), "{}\n");
    mkdirSync(join(old, "20260101-000000-aaaaaa.checkpoints"));
    session("20260102-000000-bbbbbb", "/x/acme/api");
    const api = new SessionStore(home, "/x/acme-api");
    expect(api.latest()?.firstPrompt).toBe("hello from /x/acme-api");
    expect(existsSync(join(api.dir, "20260101-000000-aaaaaa", "sub.jsonl"))).toBe(true);
    expect(existsSync(join(api.dir, "20260101-000000-aaaaaa.checkpoints"))).toBe(true);
    const other = new SessionStore(home, "/x/acme/api");
    expect(other.latest()?.firstPrompt).toBe("hello from /x/acme/api");
    expect(existsSync(old)).toBe(false);
  });

  it("keep the prompt history written under the old key", () => {
    home = mkdtempSync(join(tmpdir(), "deepcode-keys-"));
    mkdirSync(join(home, "history"));
    writeFileSync(join(home, "history", `${legacySessionFolderKey("/p/app")}.jsonl`), `${JSON.stringify("earlier")}\n`);
    const h = new History(home, "/p/app");
    expect(h.all()).toEqual(["earlier"]);
    h.add("now");
    expect(new History(home, "/p/app").all()).toEqual(["earlier", "now"]);
  });
});

describe("-c with the real CLI", () => {
  it("does not resume x/acme-api's session in x/acme/api", async () => {
    rig = await cliRig({ default: { content: "ok" } });
    const a = join(rig.env.root, "x", "acme-api");
    const b = join(rig.env.root, "x", "acme", "api");
    mkdirSync(a, { recursive: true });
    mkdirSync(b, { recursive: true });
    expect((await rig.run(["-p", "the secret plan of acme-api"], { cwd: a })).code).toBe(0);
    expect((await rig.run(["-p", "-c", "hello"], { cwd: b })).code).toBe(0);
    const last = rig.sim.requests.at(-1)!.json as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(last.messages)).not.toContain("the secret plan of acme-api");
    expect((await rig.run(["-p", "-c", "again"], { cwd: a })).code).toBe(0);
    expect(JSON.stringify((rig.sim.requests.at(-1)!.json as { messages: unknown[] }).messages)).toContain("the secret plan of acme-api");
  });
});
