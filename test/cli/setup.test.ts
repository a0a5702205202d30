import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { startSimulator, type Simulator } from "../sim/server.mjs";
import { keyProblem, keyWarning, setup } from "../../src/cli/setup.js";
import { resolveApiKey } from "../../src/cli/credentials.js";
import { tempDirs, type Dirs } from "./helpers.js";
import { freePort } from "../helpers/free-port.js";

const GOOD = "sk-setup-good-0123456789abcdef";
const WRONG = "sk-setup-wrong-0123456789abcdef";

let sim: Simulator;
let d: Dirs;
beforeAll(async () => {
  sim = await startSimulator({ apiKey: GOOD });
});
afterAll(() => sim.close());
beforeEach(() => {
  d = tempDirs();
});
afterEach(() => d.cleanup());

function sink(): { stream: Writable; text: () => string } {
  let text = "";
  return {
    stream: new Writable({
      write(chunk, _enc, done) {
        text += String(chunk);
        done();
      },
    }),
    text: () => text,
  };
}

/** `echo … | deepcode setup`: stdin is a pipe that ends. */
async function piped(stdin: string, env: Record<string, string> = {}) {
  const input = new PassThrough();
  input.end(stdin);
  const out = sink();
  const code = await setup(d.home, { input, output: out.stream, env: { DEEPSEEK_BASE_URL: sim.url, ...env } });
  return { code, text: out.text() };
}

const cred = () => join(d.home, "credentials");

describe("deepcode setup with the key on stdin (not a terminal)", () => {
  it("writes the credentials file with mode 0600, says the key was accepted, and never echoes it", async () => {
    const { code, text } = await piped(`${GOOD}\n`);
    expect(code).toBe(0);
    expect(statSync(cred()).mode & 0o777).toBe(0o600);
    expect(resolveApiKey({}, d.home)).toEqual({ key: GOOD, source: cred() });
    expect(text).toContain(`Stored the key in ${cred()} (mode 0600).`);
    expect(text).toMatch(/accepted; balance 100\.00 USD/);
    expect(text).not.toContain(GOOD);
    expect(text).not.toContain(GOOD.slice(-8));
  });

  it("refuses to store a key the API rejects (the simulator's 401), keeps an earlier key, says so without printing it, and exits 1", async () => {
    const { code, text } = await piped(`${WRONG}\n`);
    expect(code).toBe(1);
    expect(existsSync(cred())).toBe(false);
    expect(text).toMatch(/The API did not accept the key: .*401/);
    expect(text).toContain("Nothing was stored");
    expect(text).not.toContain(WRONG);
    expect((await piped(`${GOOD}\n`)).code).toBe(0);
    expect((await piped(`${WRONG}\n`)).code).toBe(1);
    expect(resolveApiKey({}, d.home)?.key).toBe(GOOD); // the good key stays
  });

  it("takes a pasted DEEPSEEK_API_KEY=… line, and skips blank lines before it", async () => {
    const { code } = await piped(`\n\nexport DEEPSEEK_API_KEY="${GOOD}"\n`);
    expect(code).toBe(0);
    expect(resolveApiKey({}, d.home)?.key).toBe(GOOD);
  });

  it("refuses empty input and a malformed key, storing nothing", async () => {
    const empty = await piped("");
    expect(empty.code).toBe(1);
    expect(empty.text).toContain("No key on stdin; nothing was stored.");
    const spaced = await piped("sk-abc def ghi jkl mno\n");
    expect(spaced.code).toBe(1);
    expect(spaced.text).toContain("That does not look like an API key: it contains spaces or line breaks. Nothing was stored.");
    expect(existsSync(cred())).toBe(false);
  });

  it("stores a key that does not look like DeepSeek's (the simulator's sk-sim) with a warning, or silently with --force", async () => {
    const local = await startSimulator({ apiKey: "sk-sim" });
    try {
      for (const force of [false, true]) {
        const input = new PassThrough();
        input.end("sk-sim\n");
        const out = sink();
        const code = await setup(d.home, { input, output: out.stream, env: { DEEPSEEK_BASE_URL: local.url }, force });
        expect(code).toBe(0);
        expect(resolveApiKey({}, d.home)?.key).toBe("sk-sim");
        if (force) expect(out.text()).not.toContain("Warning");
        else expect(out.text()).toContain("Warning: this key is shorter than DeepSeek's (6 characters; theirs have about 35); stored anyway");
        expect(out.text()).toMatch(/Checked against http:\/\/127\.0\.0\.1:\d+/);
      }
    } finally {
      await local.close();
    }
  });

  it("stores the key when the API cannot be reached, and says how to check later", async () => {
    const port = await freePort();
    const { code, text } = await piped(`${GOOD}\n`, { DEEPSEEK_BASE_URL: `http://127.0.0.1:${port}` });
    expect(code).toBe(0);
    expect(existsSync(cred())).toBe(true);
    expect(text).toContain(`Could not reach http://127.0.0.1:${port} to check the key`);
    expect(text).toContain("run `deepcode doctor` to check again");
  });

  it("warns that DEEPSEEK_API_KEY in the environment takes precedence", async () => {
    const { text } = await piped(`${GOOD}\n`, { DEEPSEEK_API_KEY: "sk-other-0123456789abcdef" });
    expect(text).toContain("DEEPSEEK_API_KEY is set in this environment and takes precedence over the stored key.");
  });
});

describe("deepcode setup on a terminal", () => {
  it("asks without echoing what is typed, asks again after a malformed key, and stores the good one", async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
    const out = sink();
    const done = setup(d.home, { input, output: out.stream, env: { DEEPSEEK_BASE_URL: sim.url } });
    input.write("has a space\r");
    await until(() => out.text().includes("Try again."));
    input.write(`${GOOD}\r`);
    expect(await done).toBe(0);
    expect(out.text()).toContain("DeepSeek API key (input hidden): ");
    expect(out.text()).toContain("That does not look like an API key: it contains spaces or line breaks. Try again.");
    expect(out.text()).not.toContain("has a space");
    expect(out.text()).not.toContain(GOOD);
    expect(readFileSync(cred(), "utf8")).toBe(`DEEPSEEK_API_KEY=${GOOD}\n`);
  });
});

describe("what counts as an obviously malformed key", () => {
  it("refuses only what cannot be a key: empty, spaced, non-ASCII; short or foreign keys are usable", () => {
    expect(keyProblem("")).toBe("it is empty");
    expect(keyProblem("sk-abc\tdef0123456789")).toBe("it contains spaces or line breaks");
    expect(keyProblem("sk-ключ0123456789abcd")).toBe("it contains characters an API key never has");
    expect(keyProblem("sk-123")).toBeUndefined();
    expect(keyProblem("sk-0123456789abcdef0123456789abcdef")).toBeUndefined();
    expect(keyWarning("sk-sim")).toMatch(/shorter than DeepSeek's/);
    expect(keyWarning("other-vendor-key-0123456789")).toMatch(/does not look like a DeepSeek key/);
    expect(keyWarning("sk-0123456789abcdef0123456789abcdef")).toBeUndefined();
  });
});

async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000; // a limit for what never happens, not a speed
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error("condition never held");
}

