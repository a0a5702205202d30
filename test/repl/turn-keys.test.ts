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
