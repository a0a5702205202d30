// Permissions: Claude Code's rule grammar, the decision (deny > ask > allow), the path fence,
// the shell parser behind Bash rules, what `a` remembers, and the gate hooks on the chain.
export { compileRules, parseRule, ruleAppliesTo, describeRule, EDIT_TOOLS, READ_TOOLS } from "./rules.js";
export type { CompiledRules, Rule, RuleFamily, RuleMatch, RuleKind, RuleLayer, RuleSource } from "./rules.js";
export { decide, type Decision, type DecisionEnv, type ToolCall } from "./decide.js";
export { rememberRule } from "./remember.js";
export { SessionRules } from "./session.js";
export { permissionSetup, type PermissionSetup } from "./setup.js";
export { registerPermissionGate, fenceWriteHook, WriteRefusedError, type GateEnv, type PermissionGateOptions } from "./gate.js";
export { historyHoldsSecret } from "./containment/git-history.js";
export { readDenial } from "./checks.js";
export { canonical, insideFence, secretReason, type PathEnv } from "./paths.js";
export { parseShell, type ParsedShell, type ShellPart } from "../../lib/shell/parser.js";
export { allowRuleNamesHost, CallCover, privateFetchAllowed } from "./fence.js";
