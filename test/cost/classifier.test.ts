import { describe, expect, it } from "vitest";
import { classifyTask, TASK_CLASSES, type TaskClass } from "../../src/core/estimate/classify.js";
import { CLASSIFIER_SET, LATER_SET, UNSEEN_SET, type LabelledPrompt } from "./classifier-set.js";

function score(set: LabelledPrompt[]): { accuracy: number; report: string } {
  const matrix = new Map<string, number>();
  const misses: string[] = [];
  let right = 0;
  for (const p of set) {
    const got = classifyTask(p.text);
    matrix.set(`${p.label}>${got}`, (matrix.get(`${p.label}>${got}`) ?? 0) + 1);
    if (got === p.label) right++;
    else misses.push(`  ${p.label} → ${got}: ${p.text.replace(/\n/g, " ").slice(0, 80)}`);
  }
  const w = 13;
  const head = "labelled \\ got".padEnd(16) + TASK_CLASSES.map((c) => c.padStart(w)).join("");
  const rows = TASK_CLASSES.map(
    (l: TaskClass) => l.padEnd(16) + TASK_CLASSES.map((g) => String(matrix.get(`${l}>${g}`) ?? 0).padStart(w)).join(""),
  );
  const accuracy = right / set.length;
  return {
    accuracy,
    report: `accuracy ${(accuracy * 100).toFixed(1)}% (${right}/${set.length})\n${head}\n${rows.join("\n")}\nmisses:\n${misses.join("\n")}`,
  };
}

describe("the task classifier sorts prompts into question, routine, refactor and architecture", () => {
  it("has a labelled set of at least 20 English and 20 Chinese prompts covering all four classes", () => {
    for (const lang of ["en", "zh"] as const) {
      const part = CLASSIFIER_SET.filter((p) => p.lang === lang);
      expect(part.length).toBeGreaterThanOrEqual(20);
      expect(new Set(part.map((p) => p.label))).toEqual(new Set(TASK_CLASSES));
    }
  });

  it("is right on at least 85% of the labelled set (confusion matrix printed on failure)", () => {
    const { accuracy, report } = score(CLASSIFIER_SET);
    expect(accuracy, report).toBeGreaterThanOrEqual(0.85);
  });

  it("is right on at least 85% of the English and of the Chinese prompts taken separately", () => {
    for (const lang of ["en", "zh"] as const) {
      const { accuracy, report } = score(CLASSIFIER_SET.filter((p) => p.lang === lang));
      expect(accuracy, `${lang}: ${report}`).toBeGreaterThanOrEqual(0.85);
    }
  });

  it("stays at 85% or better on the prompts written after the rules, seen and unseen together", () => {
    const { accuracy, report } = score([...LATER_SET, ...UNSEEN_SET]);
    expect(accuracy, report).toBeGreaterThanOrEqual(0.85);
  });

  it("calls a question that asks for a change a routine edit", () => {
    expect(classifyTask("Can you add a --json flag to the stats command?")).toBe("routine");
    expect(classifyTask("能不能给 stats 命令加一个 --json 参数?")).toBe("routine");
  });

  it("calls a pasted failure with no instruction a routine debugging task", () => {
    expect(classifyTask("```\nTypeError: x is undefined\n    at main (src/cli/main.ts:3:1)\n```")).toBe("routine");
  });

  it("widens a plain edit to a refactor when it names three or more files", () => {
    expect(classifyTask("update the header comment in @src/a.ts")).toBe("routine");
    expect(classifyTask("update the header comment in @src/a.ts @src/b.ts @src/c.ts")).toBe("refactor");
  });

  it("does not let words inside a pasted code block change the class", () => {
    const pasted = "```\n// TODO: redesign the architecture of every module across the codebase\n```";
    expect(classifyTask(`what does this comment refer to?\n${pasted}`)).toBe("question");
  });
});

describe("reading the instruction, not the material", () => {
  it("classifies a long pasted document by the question asked about it", () => {
    const doc = "The handbook says that deployments must be approved. We will design a new queue service, refactor every module and migrate the storage layer. ".repeat(40);
    expect(classifyTask(`${doc}\n\nAccording to section 4 of the handbook above, who approves a deployment?`)).toBe("question");
  });
  it("takes a request for an overview as a question wherever it stands", () => {
    expect(classifyTask("I'm new to this project. Give me an overview of how the modules fit together.")).toBe("question");
  });
  it("does not read a file name as a word: src/store.js is a file, not a store to build", () => {
    expect(classifyTask("add a clamp helper to src/store.js with a test")).toBe("routine");
  });
});
