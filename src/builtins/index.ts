// The six built-in tools, with Claude Code's names and parameters so users' permission rules
// and hooks carry over: Read, Write, Edit, Bash, Glob, Grep.

import type { ToolSpec } from "../contract/index.js";
import { bashTool } from "./bash.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { createGrepTool } from "./grep.js";
import { findRg } from "./grep-rg.js";
import { readTool } from "./read.js";
import { writeTool } from "./write.js";

export interface BuiltinOptions {
  /** The ripgrep binary for Grep: undefined looks `rg` up on PATH (once), null forces the built-in search. */
  rgPath?: string | null;
}

// Each tool's input is a type alias, not an interface, so ToolSpec<ItsInput> is a ToolSpec.
export function builtinTools(opts: BuiltinOptions = {}): ToolSpec[] {
  let rg: string | null | undefined = opts.rgPath;
  const resolveRg = (): string | null => {
    if (rg === undefined) rg = findRg();
    return rg;
  };
  return [readTool, writeTool, editTool, bashTool, globTool, createGrepTool(resolveRg)];
}

export { findRg } from "./grep-rg.js";
