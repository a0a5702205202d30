// The `/plan` estimate keeps its dollar figure in a narrow terminal (issue 39: at 80 and 100
// columns it was cut to `≈ plan + run routine`; README says a figure is never cut): the names
// and the parts' ranges go first, the sum of planner and executor stays.
import { describe, expect, it } from "vitest";
import { enter, useRepl } from "../repl/helpers.js";

const repl = useRepl();

describe("the /plan estimate in a narrow terminal", () => {
  it.each([80, 100])("shows the planner + executor sum in dollars at %i columns, on one line", async (width) => {
    const t = await repl.open({ replies: [{ content: "## Steps\n1. Write hello.txt" }] }, {}, { width });
    enter(t, "/plan add a greeting file");
    const s = await t.waitFor(/^≈ .*$/m);
    const line = s.split("\n").find((l) => l.startsWith("≈ ")) ?? "";
    expect(line, s).toMatch(/plan .*= \$[\d.]+–[\d.]+$|plan \+ run \$[\d.]+–[\d.]+$/);
    expect(line.length).toBeLessThan(width);
  });
});
