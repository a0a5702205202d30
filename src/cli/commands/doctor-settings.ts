// Doctor's settings findings: each settings layer found, valid or not (a malformed file is a
// finding with its file:line:column, never a crash), the warnings deepcode would print at start
// (unknown keys, rules it ignores), and the managed policy: absent, present or broken.

import { policyFileRisks } from "../policy-check.js";
import { join } from "node:path";
import { ConfigError } from "../../contract/index.js";
import type { AssembleOptions } from "../assemble.js";
import type { DoctorCheck } from "./doctor-check.js";
import { permissionSetup } from "../permissions/index.js";
import { defaultManagedPath, loadSettings, readSettingsFile } from "../settings/load.js";
import { claudeSettingsFiles } from "../settings/claude.js";
import { describeItems, resolveTrust, trustLine, type TrustState } from "../trust/index.js";

export function settingsChecks(o: AssembleOptions, home: string): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  const layers: Array<{ name: string; file: string; required: boolean }> = [
    { name: "user", file: join(home, "settings.json"), required: false },
    { name: "project", file: join(o.root, ".deepcode", "settings.json"), required: false },
    { name: "local", file: join(o.root, ".deepcode", "settings.local.json"), required: false },
  ];
  if (o.flagSettings !== undefined) layers.push({ name: "flag", file: o.flagSettings, required: true });
  const absent: string[] = [];
  let broken = false;
  for (const l of layers) {
    try {
      const r = readSettingsFile(l.file, l.required, [], new Set());
      if (r.present) out.push({ id: "settings", status: "ok", label: `settings (${l.name})`, detail: `${l.file} valid` });
      else absent.push(l.name);
    } catch (err) {
      broken = true;
      const message = err instanceof ConfigError ? err.message : `${l.file}: ${String(err)}`;
      out.push({
        id: "settings",
        status: "fail",
        label: `settings (${l.name})`,
        detail: message,
        fix: "correct the file at that line (deepcode will not start until it is valid)",
      });
    }
  }
  if (absent.length) out.push({ id: "settings", status: "ok", label: "settings", detail: `no ${absent.join(", ")} settings file (defaults apply there)` });
  // Claude Code's own files: read too, tolerantly (a broken one is left out, deepcode starts).
  for (const [name, file] of Object.entries(claudeSettingsFiles(o.root))) {
    try {
      if (readSettingsFile(file, false, [], new Set(), { claude: true }).present) out.push({ id: "settings", status: "ok", label: `settings (${name}, Claude Code's)`, detail: `${file} read (the keys deepcode applies)` });
    } catch (err) {
      out.push({ id: "settings", status: "warn", label: `settings (${name}, Claude Code's)`, detail: err instanceof Error ? err.message : String(err), fix: "correct the file at that line (deepcode leaves it out until then)" });
    }
  }

  const managedPath = o.managedPath ?? defaultManagedPath();
  if (!broken) {
    // The warnings deepcode prints at start (unknown keys, ignored rules), as findings.
    try {
      const loaded = loadSettings({ root: o.root, home, flagFile: o.flagSettings, managedPath });
      const said = [...loaded.warnings.filter((w) => !w.startsWith("MANAGED POLICY") && !w.endsWith("(Claude Code's settings file: left out; everything else loads)")), ...permissionSetup(loaded).warnings];
      for (const w of said) out.push({ id: "settings", status: "warn", label: "settings", detail: w, fix: "edit or remove that entry" });
      out.push(trustCheck(resolveTrust({ root: o.root, home, settings: loaded, flag: o.trustProject })));
    } catch (err) {
      // Each file parsed alone above; a failure here is a cross-file problem worth showing.
      out.push({ id: "settings", status: "fail", label: "settings", detail: err instanceof Error ? err.message : String(err), fix: "correct the file named" });
    }
  }
  out.push(managedCheck(managedPath));
  return out;
}

/** Workspace trust: whether this project's own loosening settings and commands apply. */
function trustCheck(state: TrustState): DoctorCheck {
  const detail = `${trustLine(state)}${state.items.length ? `: ${describeItems(state, state.root).join("; ")}` : ""}`;
  const ignored = !state.trusted && state.items.length > 0;
  return { id: "trust", status: ignored ? "warn" : "ok", label: "workspace trust", detail, ...(ignored ? { fix: "if you trust this project, run `deepcode trust`" } : {}) };
}

/** The managed policy alone: the other layers are pointed below the policy file, where nothing
 *  can exist (ENOTDIR or ENOENT both read as absent), so a broken user file cannot hide it. */
function managedCheck(managedPath: string): DoctorCheck {
  const nowhere = join(managedPath, ".doctor-none");
  let state;
  try {
    state = loadSettings({ root: nowhere, home: nowhere, userHome: nowhere, managedPath }).managed;
  } catch (err) {
    return { id: "managed", status: "fail", label: "managed policy", detail: err instanceof Error ? err.message : String(err), fix: `an administrator must fix ${managedPath}` };
  }
  if (state.state === "absent") return { id: "managed", status: "ok", label: "managed policy", detail: `none (${state.path})` };
  // How each file is kept: a symlink, or a file others can write, is a policy anyone may change.
  const risks = state.files.flatMap((f) => policyFileRisks(f).map((r) => `${f} ${r}`));
  if (state.state === "ok" && risks.length === 0) return { id: "managed", status: "ok", label: "managed policy", detail: `present: ${state.files.join(", ")}` };
  if (state.state === "ok") {
    const fix = "an administrator must install each policy file root-owned, mode 0644, not a symlink";
    return { id: "managed", status: "warn", label: "managed policy", detail: `present, but ${risks.join("; ")}`, fix };
  }
  // The file at fault: the problem starts with it (file:line:column: …), a drop-in's included.
  const fault = /^(\/[^:]+?)(?::\d+)*: /.exec(state.problem ?? "")?.[1] ?? state.path;
  return {
    id: "managed",
    status: "fail",
    label: "managed policy",
    detail: `broken, so every tool call is denied: ${state.problem ?? state.path}`,
    fix: `an administrator must fix ${fault} (\`deepcode policy check ${fault}\` lists every problem in it)`,
  };
}
