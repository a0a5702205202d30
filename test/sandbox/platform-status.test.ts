// What each platform is told where the Bash sandbox is not active (mods/sandbox/platforms.ts,
// issue #36 item 3): what protects the person instead, and how to get commands contained — as
// the mod's status carries it and /status shows it in one line.
import { describe, expect, it } from "vitest";
import { sandboxStatus } from "../../mods/sandbox/index.js";
import { uncontainedOn } from "../../mods/sandbox/platforms.js";
import { sandboxLine } from "../../src/cli/sandbox-line.js";
import type { KnownStatus } from "../../src/contract/index.js";

const lineOf = (s: ReturnType<typeof sandboxStatus>): string =>
  sandboxLine({ active: s.active, mechanism: s.mechanism, network: s.network, ...(s.active ? {} : { detail: s.detail, ...s.without }) } satisfies KnownStatus["sandbox"]);

describe("where the sandbox is not active", () => {
  it("says on macOS that the Seatbelt profile has not run on a Mac yet, so commands run uncontained and the gate decides", () => {
    const s = sandboxStatus({}, "darwin");
    expect(s.active).toBe(false);
    expect(s.without?.uncontained).toBe("macOS: the Seatbelt profile is generated but has not run on a Mac yet: commands run uncontained and the permission gate decides (a question for what no rule allows)");
    expect(s.without?.fix).toMatch(/deepcode sandbox --profile/);
    expect(lineOf(s)).toMatch(/^not active \(bubblewrap is Linux-only \(this is darwin\)\): macOS: the Seatbelt profile is generated but has not run on a Mac yet/);
  });

  it("says on Linux without bubblewrap, in one line, which package to install", () => {
    const s = sandboxStatus({}, "linux", "/nonexistent-bin");
    expect(s.without?.fix).toBe("install bubblewrap (apt install bubblewrap), or your distribution's bubblewrap package");
    const line = lineOf(s);
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain("commands run uncontained and the permission gate decides");
    expect(line).toContain("to contain them: install bubblewrap (apt install bubblewrap)");
  });

  it("says on Linux where bubblewrap cannot start which user-namespace setting to change", () => {
    const w = uncontainedOn("linux", "/usr/bin/bwrap cannot create a sandbox here (setting up uid map: Permission denied); user namespaces may be disabled");
    expect(w.fix).toContain("kernel.unprivileged_userns_clone=1");
    expect(w.fix).toContain("kernel.apparmor_restrict_unprivileged_userns=0");
    expect(w.fix).not.toContain("apt install");
  });

  it("says on Windows that there is no sandbox, and offers no fix", () => {
    const s = sandboxStatus({}, "win32");
    expect(s.without).toEqual({ uncontained: "Windows has no sandbox: commands run uncontained and the permission gate decides (a question for what no rule allows)" });
    expect(lineOf(s)).not.toContain("to contain them");
  });

  it("says first that every command is refused where settings require the sandbox and it cannot run", () => {
    const s = sandboxStatus({ required: "/etc/deepcode/managed-settings.json", bwrapPath: "/nonexistent/bwrap" }, "linux");
    expect(sandboxLine({ active: false, mechanism: null, network: true, detail: s.detail, ...s.without, required: s.required })).toBe(
      "not active (/nonexistent/bwrap is not an executable bwrap (the managed policy's sandbox.bwrapPath)), and required (sandbox.failIfUnavailable in /etc/deepcode/managed-settings.json): every command is refused; to get it: install bubblewrap (apt install bubblewrap), or your distribution's bubblewrap package",
    );
  });

  it("says how to turn it back on where settings turned it off", () => {
    expect(lineOf(sandboxStatus({ enabled: false }))).toBe("not active (turned off in settings (sandbox.enabled: false)): commands run uncontained and the permission gate decides (a question for what no rule allows); to contain them: set sandbox.enabled to true in settings");
  });
});

describe("where the sandbox is active", () => {
  it("says what contains commands and that a contained command runs without a question, unless the auto-allow is off", () => {
    expect(sandboxLine({ active: true, mechanism: "bwrap", network: false, autoAllow: true })).toBe("bwrap: writes only in the workspace, no network; a command it contains runs without a question");
    expect(sandboxLine({ active: true, mechanism: "bwrap", network: false, autoAllow: false })).toBe("bwrap: writes only in the workspace, no network");
  });
});
