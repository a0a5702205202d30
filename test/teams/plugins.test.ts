// Native plugins under a managed policy (issue #42, item 6), as a developer would try to get
// around it: a user's `"plugins": ["…/evil.mjs"]` is code in deepcode's process, so what counts
// is whether it is imported at all. Judged by effect: a plugin that is imported leaves a file
// behind the moment its module runs; a plugin's own reads are held to the policy's read denies.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSession, type Session } from "../hooks/helpers.js";

let s: Session | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const script = { replies: [{ content: "hi" }] };

/** A plugin module that, as soon as it is imported, writes `<name>` into `ran/` (outside the
 *  project), and at register tries to read `secret` through api.readOwnFile. */
function pluginFile(dir: string, name: string, secret?: string): string {
  mkdirSync(join(dir, "ran"), { recursive: true });
  const file = join(dir, `${name}.mjs`);
  const mark = JSON.stringify(join(dir, "ran", name));
  const read = secret
    ? `const r = api.readOwnFile(${JSON.stringify(secret)}); writeFileSync(${JSON.stringify(join(dir, "ran", `${name}.read`))}, r.ok ? r.text : "refused: " + r.reason);`
    : "";
  writeFileSync(file, `import { writeFileSync } from "node:fs";\nwriteFileSync(${mark}, "imported");\nexport default { id: ${JSON.stringify(name)}, register(api) { ${read} } };\n`);
  return file;
}

const sha = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");
const ran = (box: { base: string }, name: string): boolean => existsSync(join(box.base, "ran", name));

interface Setup {
  /** The person's plugins, made in the box (outside the project). */
  user?: (dir: string) => string[];
  /** The managed policy, given the box's folder (for the paths it names). */
  managed: (dir: string) => object;
}

async function start(o: Setup): Promise<{ session?: Session; error?: Error; dir: string }> {
  let dir = "";
  let managed: object = {};
  const opts = {
    script,
    prepare: (b: { base: string; deepcodeHome: string }) => {
      dir = b.base;
      const plugins = o.user?.(dir) ?? [];
      writeFileSync(join(b.deepcodeHome, "settings.json"), JSON.stringify({ plugins }));
      managed = o.managed(dir);
      writeFileSync(join(dir, "policy.json"), JSON.stringify(managed));
    },
    get managed() {
      return JSON.parse(readFileSync(join(dir, "policy.json"), "utf8")) as object;
    },
  };
  try {
    return { session: await openSession(opts), dir };
  } catch (err) {
    return { error: err as Error, dir };
  }
}

describe("a person's native plugin under the managed policy", () => {
  it("without a plugin policy, is imported (the test can tell)", async () => {
    const r = await start({ user: (d) => [pluginFile(d, "evil")], managed: () => ({}) });
    s = r.session;
    expect(ran({ base: r.dir }, "evil")).toBe(true);
  });

  it("is never imported when the policy allows only its own plugins, and the start says which key refused it", async () => {
    const r = await start({ user: (d) => [pluginFile(d, "evil")], managed: () => ({ allowManagedPluginsOnly: true }) });
    s = r.session;
    expect(ran({ base: r.dir }, "evil")).toBe(false);
    expect(s!.warnings.join("\n")).toMatch(/plugin .*evil\.mjs not loaded: the managed policy allows only its own plugins \(allowManagedPluginsOnly in .*managed-settings\.json\)/);
  });

  it("loads only when allowedPlugins lists its path with the sha256 of its content: the same path with other content is refused", async () => {
    const r = await start({
      user: (d) => [pluginFile(d, "good"), pluginFile(d, "evil")],
      managed: (d) => {
        const good = join(d, "good.mjs");
        const hash = sha(good);
        // The developer then changes the listed file: its hash no longer fits.
        const evil = join(d, "evil.mjs");
        return { allowedPlugins: [{ path: good, sha256: hash }, { path: evil, sha256: "0".repeat(64) }] };
      },
    });
    s = r.session;
    expect(ran({ base: r.dir }, "good")).toBe(true);
    expect(ran({ base: r.dir }, "evil")).toBe(false);
    expect(s!.warnings.join("\n")).toMatch(/plugin .*evil\.mjs not loaded: the managed policy's allowedPlugins \(.*\) does not list it with this path and content/);
  });

  it("cannot read a path the policy denies through api.readOwnFile", async () => {
    const r = await start({
      user: (d) => {
        mkdirSync(join(d, "secrets"), { recursive: true });
        writeFileSync(join(d, "secrets", "api.txt"), "TOKEN=hunter2\n");
        return [pluginFile(d, "reader", join(d, "secrets", "api.txt"))];
      },
      managed: (d) => ({ permissions: { deny: [`Read(/${join(d, "secrets")}/**)`] } }),
    });
    s = r.session;
    const got = readFileSync(join(r.dir, "ran", "reader.read"), "utf8");
    expect(got).not.toContain("hunter2");
    expect(got).toMatch(/^refused: reading it is denied by /);
  });
});

describe("the managed policy's own plugin", () => {
  it("that cannot be found stops deepcode, naming the policy file, instead of running without it", async () => {
    const r = await start({ managed: (d) => ({ plugins: [join(d, "moved-away", "audit.mjs")] }) });
    s = r.session;
    expect(r.error?.message).toMatch(/managed-settings\.json: the managed policy's plugin .*audit\.mjs did not load \(cannot load: .*\): deepcode does not start without it/);
  });

  it("whose file no longer has the policy's sha256 stops deepcode before it is imported", async () => {
    const r = await start({ managed: (d) => ({ plugins: [{ path: pluginFile(d, "audit"), sha256: "f".repeat(64) }] }) });
    s = r.session;
    expect(r.error?.message).toMatch(/the managed policy's plugin .*audit\.mjs does not have the sha256 the policy gives/);
    expect(ran({ base: r.dir }, "audit")).toBe(false);
  });

  it("with the right sha256, loads in the policy's tier (the test can tell)", async () => {
    const r = await start({ managed: (d) => { const f = pluginFile(d, "audit"); return { plugins: [{ path: f, sha256: sha(f) }] }; } });
    s = r.session;
    expect(r.error).toBeUndefined();
    expect(ran({ base: r.dir }, "audit")).toBe(true);
  });
});
