import { describe, expect, it } from "vitest";
import { Chain } from "../../src/core/chain.js";
import type { Tier } from "../../src/contract/index.js";

describe("the chain runs hooks in authority order", () => {
  it("gives the first hook of the first tier the event first and the result last, across all five tiers", async () => {
    const chain = new Chain();
    const seen: string[] = [];
    const tiers: Tier[] = ["builtin", "append", "user", "prepend"]; // registered out of order on purpose
    for (const tier of tiers) {
      for (const n of [1, 2]) {
        chain.on(tier, `${tier}${n}`, "session.end", null, async (e, next) => {
          seen.push(`in:${tier}${n}`);
          const r = await next(e);
          seen.push(`out:${tier}${n}`);
          return r;
        });
      }
    }
    chain.setCore("session.end", () => {
      seen.push("core");
    });
    await chain.dispatch({ type: "session.end", sessionId: "s", reason: "test" });
    expect(seen).toEqual([
      "in:prepend1", "in:prepend2", "in:user1", "in:user2", "in:append1", "in:append2", "in:builtin1", "in:builtin2",
      "core",
      "out:builtin2", "out:builtin1", "out:append2", "out:append1", "out:user2", "out:user1", "out:prepend2", "out:prepend1",
    ]);
  });

  it("lists who hooks an event, outermost first", () => {
    const chain = new Chain();
    chain.on("builtin", "b", "tool.check", null, (_e, next) => next());
    chain.on("prepend", "p", "*", null, (_e, next) => next());
    chain.on("user", "u", "tool.*", null, (_e, next) => next());
    expect(chain.hooksFor("tool.check").map((h) => `${h.tier}:${h.owner}`)).toEqual(["prepend:p", "user:u", "builtin:b"]);
    expect(chain.hooksFor("fs.read").map((h) => h.owner)).toEqual(["p"]);
  });

  it("runs the core answer directly on the caller's object when no hook is registered", async () => {
    const chain = new Chain();
    const payload = { type: "fs.read" as const, path: "/x" };
    let got: unknown;
    chain.setCore("fs.read", (e) => {
      got = e;
      return { data: Buffer.from(""), stat: { size: 0, mtimeMs: 0, mode: 0, isFile: true, isDirectory: false }, truncated: false };
    });
    await chain.dispatch(payload);
    expect(got).toBe(payload);
    expect(Object.isFrozen(payload)).toBe(false);
  });

  it("stops running a hook once it is unsubscribed", async () => {
    const chain = new Chain();
    let calls = 0;
    const off = chain.on("user", "u", "session.end", null, (_e, next) => {
      calls++;
      return next();
    });
    chain.setCore("session.end", () => undefined);
    await chain.dispatch({ type: "session.end", sessionId: "s", reason: "" });
    off();
    await chain.dispatch({ type: "session.end", sessionId: "s", reason: "" });
    expect(calls).toBe(1);
  });

  it("rejects an event that is not in the catalogue, at registration and at dispatch", async () => {
    const chain = new Chain();
    expect(() => chain.on("user", "u", "tool.chekc", null, (_e, next) => next())).toThrow(/unknown event 'tool.chekc'/);
    expect(() => chain.on("user", "u", "nosuch.*", null, (_e, next) => next())).toThrow(/matches no event/);
    await expect(chain.dispatch({ type: "bogus" } as never)).rejects.toThrow(/unknown event 'bogus'/);
  });

  it("throws NotImplementedError naming a declared event that has no core answer", async () => {
    const chain = new Chain();
    await expect(chain.dispatch({ type: "http.fetch", url: "http://127.0.0.1/" })).rejects.toMatchObject({
      name: "NotImplementedError",
      message: expect.stringContaining("http.fetch"),
    });
  });
});
