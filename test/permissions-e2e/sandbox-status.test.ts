// What `deepcode doctor` learns from the sandbox mod: whether commands run sandboxed here, and
// if not, why — said in words a person can act on.
import { describe, expect, it } from "vitest";
import { sandboxStatus } from "../../mods/sandbox/index.js";

describe("sandboxStatus", () => {
  it("says the sandbox is Linux-only on other systems", () => {
    const s = sandboxStatus({}, "darwin");
    expect(s).toMatchObject({ active: false, mechanism: null });
    expect(s.detail).toBe("bubblewrap is Linux-only (this is darwin)");
  });

  it("says bwrap is missing when no PATH entry has it", () => {
    const s = sandboxStatus({}, "linux", "/nonexistent-bin");
    expect(s.active).toBe(false);
    expect(s.detail).toBe("bwrap (bubblewrap) is not installed or not on PATH");
  });

  it("says it was turned off in settings", () => {
    expect(sandboxStatus({ enabled: false })).toMatchObject({ active: false, detail: "turned off in settings (sandbox.enabled: false)" });
  });

  it.skipIf(!sandboxStatus().active)("describes an active sandbox, with or without network", () => {
    expect(sandboxStatus()).toMatchObject({ active: true, mechanism: "bwrap", network: false });
    expect(sandboxStatus().detail).toMatch(/no network$/);
    expect(sandboxStatus({ network: true })).toMatchObject({ active: true, network: true });
  });
});
