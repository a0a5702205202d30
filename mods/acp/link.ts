// What the acp mod (index.ts, prepend tier: the editor's person answers permission questions)
// and its innermost part (editor-io.ts, builtin tier: files and commands through the editor)
// share: one module, loaded once per process, holds the agent while `deepcode acp` serves.

import type { FsReadRequest, FsReadResult, FsWriteRequest, FsWriteResult, ProcessRunRequest, ProcessRunResult } from "../../src/contract/index.js";

/** The editor's side of a call's effects. Each answers undefined when the call is not one of
 *  the editor's sessions' (or the editor does not offer that capability): the disk answers.
 *  `disk`/`here`: the rest of the chain, for an editor that fails to answer. */
export interface EditorEffects {
  read(e: FsReadRequest, disk: () => Promise<FsReadResult>): Promise<FsReadResult> | undefined;
  write(e: FsWriteRequest, disk: () => Promise<FsWriteResult>): Promise<FsWriteResult> | undefined;
  run(e: ProcessRunRequest, here: () => Promise<ProcessRunResult>): Promise<ProcessRunResult> | undefined;
}

export const link: { effects?: EditorEffects } = {};
