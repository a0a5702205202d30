// TurnKeys' rule that a key pressed for one question never answers the next, on a stream fed
// by the test: keys that arrive before a question's answers are shown (its grace period) stay
// type-ahead; keys after that answer it. Sent one at a time and batched in one read.
import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { TurnKeys, type Key } from "../../src/cli/repl/keys.js";

function setup(graceMs = 10_000) {
  const input = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.ReadStream;
  const keys = new TurnKeys(input, graceMs);
  keys.start(() => undefined);
  const send = (s: string): void => void (input as unknown as PassThrough).write(s);
  return { keys, send };
}

/** The question's answer, or "open" when nothing answered it yet. */
async function settled(p: Promise<Key>): Promise<Key | "open"> {
  return Promise.race([p, new Promise<"open">((r) => setImmediate(() => setImmediate(() => r("open"))))]);
}

describe("a question's grace period", () => {
  it.each([
    ["one at a time", ["\r"]],
    ["batched", ["n\r"]],
  ])("does not take keys that arrive before its answers are shown (%s)", async (_how, sends) => {
    const { keys, send } = setup();
    let shown = false;
    const answer = keys.ask({ show: () => (shown = true) });
    for (const s of sends) send(s);
    expect(await settled(answer)).toBe("open");
    expect(shown).toBe(false);
    keys.stop();
    expect(await answer).toEqual({ kind: "interrupt" });
    expect(keys.takeTypeahead()).toBe(sends.join("")); // kept for the next prompt, not lost
  });

  it("takes the first key after its answers are shown, one at a time and batched", async () => {
    for (const batch of [false, true]) {
      const { keys, send } = setup(20);
      let shown!: () => void;
      const showing = new Promise<void>((r) => (shown = r));
      const answer = keys.ask({ show: () => shown() });
      send("\r"); // meant for what was on screen before
      await showing;
      if (batch) send("y\r");
      else send("y");
      expect(await answer).toEqual({ kind: "key", key: "y" });
      if (!batch) send("\r"); // the Enter after the answer is consumed either way
      expect(keys.takeTypeahead()).toBe("\r");
      keys.stop();
    }
  });

  it("lets an interrupt end a question still in its grace period", async () => {
    const { keys } = setup();
    const answer = keys.ask({ show: () => undefined });
    keys.stop();
    expect(await answer).toEqual({ kind: "interrupt" });
  });

  it("at a chooser, a line typed and ended with Enter is type-ahead, and the key after it answers", async () => {
    const { keys, send } = setup(0);
    const answer = keys.ask({ accepts: (k) => k === "\r" || k === "1" });
    send("/status\r");
    expect(await settled(answer)).toBe("open");
    send("\r");
    expect(await answer).toEqual({ kind: "key", key: "\r" });
    expect(keys.takeTypeahead()).toBe("/status\r");
    keys.stop();
  });
});

describe("a question that takes only deliberate keys (a permission question: y, a, n, Esc)", () => {
  const deliberate = (k: string): boolean => /^[yanYAN]$/.test(k) || k === "\x1b";

  it("drops a lone Enter, which answers nothing, and takes the key after it", async () => {
    const { keys, send } = setup(0);
    const answer = keys.ask({ accepts: deliberate });
    send("\r");
    expect(await settled(answer)).toBe("open");
    send("y");
    expect(await answer).toEqual({ kind: "key", key: "y" });
    expect(keys.takeTypeahead()).toBe(""); // the stray Enter is not sent at the next prompt either
    keys.stop();
  });

  it("keeps /status typed while it is up for the next prompt, unanswered, and takes n after it", async () => {
    const { keys, send } = setup(0);
    const answer = keys.ask({ accepts: deliberate });
    for (const k of "/status") send(k); // one key at a time: its a and s never answer
    expect(await settled(answer)).toBe("open");
    send("\r");
    expect(await settled(answer)).toBe("open");
    send("n");
    expect(await answer).toEqual({ kind: "key", key: "n" });
    expect(keys.takeTypeahead()).toBe("/status\r");
    keys.stop();
  });

  it("keeps a paste for the next prompt and takes the key after it", async () => {
    const { keys, send } = setup(0);
    const answer = keys.ask({ accepts: deliberate });
    send("\x1b[200~y\n\x1b[201~");
    expect(await settled(answer)).toBe("open");
    send("\x1b");
    expect(await answer).toEqual({ kind: "key", key: "\x1b" });
    expect(keys.takeTypeahead()).toBe("\x1b[200~y\n\x1b[201~");
    keys.stop();
  });
});

describe("after a cancel puts the prompt back (Esc at the tier chooser)", () => {
  it("drops the Enters typed before and just after, so the prompt is not sent again", async () => {
    const { keys, send } = setup(0);
    send("\r"); // a quick second Enter, already typed
    keys.unshift("draft question");
    keys.quietEnters(10_000);
    send("\r"); // and one just after
    send(" more");
    expect(keys.takeTypeahead()).toBe("draft question more");
    expect(keys.quietLeft).toBeGreaterThan(0);
    keys.stop();
  });
});
