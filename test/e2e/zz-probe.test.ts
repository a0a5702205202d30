import { it } from "vitest";
import { cliRig } from "./helpers.js";
it("probe", async () => {
  const rig = await cliRig({ default: { content: "ok" } });
  const a = await rig.run(["-p", "hi", "--model", "deepseek-coder"]);
  console.log("A", a.code, a.stdout, a.stderr);
  const b = await rig.run(["-p", "again", "-c"]);
  console.log("B", b.code, b.stdout, b.stderr, rig.sim.requests.map(r => r.json?.model + " " + r.status).join(","));
  const c = await rig.run(["-p", "again", "--model", "deepseek-coder", "--settings", '{"model":"x"}']);
  console.log("C", c.code, c.stdout, c.stderr);
  await rig.close();
});
