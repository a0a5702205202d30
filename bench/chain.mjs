// Chain overhead: a dispatch with 0, 1 and 10 pass-through hooks against calling the core
// answer directly. Goals (issue 2): 0 hooks < 2× a direct call; < 2 µs per pass-through hook.
import { Chain } from "../dist/src/core/chain.js";
import { fast, fmt, nsPerCall, table } from "./lib.mjs";

export async function run() {
  const n = fast ? 20_000 : 200_000;
  const core = async (e) => ({ text: e.text });
  const event = { type: "prompt.submit", sessionId: "s", text: "hello" };
  const direct = await nsPerCall(() => core(event), n);
  const rows = [["dispatch", "per dispatch", "direct call", "ratio", "per hook", "goal", "met"]];
  for (const hooks of [0, 1, 10]) {
    const chain = new Chain();
    chain.setCore("prompt.submit", core);
    for (let i = 0; i < hooks; i++) chain.on("user", `h${i}`, "prompt.submit", null, (e, next) => next());
    const t = await nsPerCall(() => chain.dispatch(event), n);
    const perHook = hooks ? (t - direct) / hooks : 0;
    const goal = hooks === 0 ? "< 2× direct" : "< 2 µs/hook";
    const met = hooks === 0 ? t / direct < 2 : perHook < 2000;
    rows.push([`${hooks} hooks`, fmt.ns(t), fmt.ns(direct), fmt.ratio(t / direct), hooks ? fmt.ns(perHook) : "-", goal, met ? "yes" : "NO"]);
  }
  table("chain: dispatch cost against a direct call", rows);
}
