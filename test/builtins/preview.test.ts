import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { session, writeTree } from "./helpers.js";

describe("the permission prompt previews a change without making it", () => {
  it("shows an Edit as the unified diff that would be written, and leaves the file alone", async () => {
    const s = session();
    writeTree(s.root, { "a.ts": "const a = 1;\nconst b = 2;\n" });
    await s.call("Read", { file_path: "a.ts" });
    const preview = await s.tools.get("Edit")!.preview!({ file_path: "a.ts", old_string: "const b = 2;", new_string: "const b = 3;" }, s.ctx());
    expect(preview).toContain("-const b = 2;");
    expect(preview).toContain("+const b = 3;");
    expect(readFileSync(join(s.root, "a.ts"), "utf8")).toBe("const a = 1;\nconst b = 2;\n");
  });

  it("says why an Edit would fail instead of showing a diff", async () => {
    const s = session();
    writeTree(s.root, { "a.ts": "x\n" });
    await s.call("Read", { file_path: "a.ts" });
    const preview = await s.tools.get("Edit")!.preview!({ file_path: "a.ts", old_string: "nope", new_string: "yes" }, s.ctx());
    expect(preview).toMatch(/^\(this edit would fail: old_string was not found in a\.ts/);
  });

  it("shows a Write as the diff against the current file, or all new lines for a new file", async () => {
    const s = session();
    writeTree(s.root, { "b.txt": "old\n" });
    const write = s.tools.get("Write")!;
    expect(await write.preview!({ file_path: "b.txt", content: "new\n" }, s.ctx())).toMatch(/-old\n\+new/);
    expect(await write.preview!({ file_path: "c.txt", content: "fresh\n" }, s.ctx())).toBe("--- /dev/null\n+++ b/c.txt\n@@ -0,0 +1,1 @@\n+fresh");
    expect(readFileSync(join(s.root, "b.txt"), "utf8")).toBe("old\n");
  });

  it("shows a new file's diff from /dev/null, and an existing empty file's from a/", async () => {
    const s = session();
    writeTree(s.root, { "empty.txt": "" });
    const write = s.tools.get("Write")!;
    expect(await write.preview!({ file_path: "empty.txt", content: "x\n" }, s.ctx())).toMatch(/^--- a\/empty\.txt\n\+\+\+ b\/empty\.txt/);
    const edit = await s.tools.get("Edit")!.preview!({ file_path: "new.txt", old_string: "", new_string: "hello\n" }, s.ctx());
    expect(edit).toMatch(/^--- \/dev\/null\n\+\+\+ b\/new\.txt\n/);
  });
});
