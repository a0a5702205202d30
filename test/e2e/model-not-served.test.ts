// A model name the API no longer serves (kolega-code#695): the turn that names it shows the
// models that are served; a session carried on with `-c` continues on a served model (the one
// this run would choose) and says which, instead of failing the same way every time.
import { afterEach, describe, expect, it } from "vitest";
import { cliRig, type CliRig } from "./helpers.js";

let rig: CliRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const models = () => rig!.sim.requests.map((r) => (r.json as { model: string }).model);

describe("a model the API does not serve", () => {
  it("names the served models when the person chose it, and -c carries the session on a served one, saying so", async () => {
    rig = await cliRig({ default: { content: "ok" } });
    const first = await rig.run(["-p", "hi", "--model", "deepseek-coder"]);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/the API does not serve this model \(400\): Model Not Exist; DeepSeek serves deepseek-flash, .*deepseek-v4-pro.*: choose one with --model/);

    const again = await rig.run(["-p", "hi again", "-c"]);
    expect(again.code, `${again.stderr} ${again.stdout} ${models().join(",")}`).toBe(0);
    expect(again.stdout).toBe("ok\n");
    expect(again.stderr).toMatch(/the API no longer serves deepseek-coder, the model this session was using; it continues on deepseek-flash \(the default model\)/);
    expect(models()).toEqual(["deepseek-coder", "deepseek-coder", "deepseek-flash"]);
    // The session's history went with it: the first prompt is in the request on the served model.
    const sent = rig.sim.requests.at(-1)!.json as { messages: Array<{ role: string; content: string }> };
    expect(sent.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n")).toContain("hi");

    // The switch is the session's: the next -c asks the served model straight away.
    const third = await rig.run(["-p", "and again", "-c", "--output-format", "json"]);
    expect(third.code, third.stderr).toBe(0);
    expect(models().at(-1)).toBe("deepseek-flash");
    expect(models()).toHaveLength(4);
  });

  it("keeps the error when -c names the unserved model itself", async () => {
    rig = await cliRig({ default: { content: "ok" } });
    await rig.run(["-p", "hi", "--model", "deepseek-coder"]);
    const again = await rig.run(["-p", "hi again", "-c", "--model", "deepseek-coder"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/the API does not serve this model/);
    expect(models().at(-1)).toBe("deepseek-coder");
  });
});
