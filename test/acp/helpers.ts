// `deepcode acp` as an editor starts it: the compiled CLI as a subprocess in the project, driven
// by the official ACP client (@agentclientprotocol/sdk) over its stdin/stdout, against the
// simulator. Run `npx tsc -p tsconfig.json` first (bin/deepcode.js starts dist/).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, type ClientApp, type ClientContext, type RequestPermissionRequest, type RequestPermissionResponse, type SessionNotification } from "@agentclientprotocol/sdk";
import { startSimulator, type Script, type Simulator } from "../sim/server.mjs";
import { BIN, cliEnv, type CliEnv } from "../helpers/cli-env.js";

export interface AcpRig {
  sim: Simulator;
  env: CliEnv;
  close(): Promise<void>;
}

export async function acpRig(script: Script, files: Record<string, string> = {}): Promise<AcpRig> {
  const sim = await startSimulator({ script, apiKey: "sk-test-cli" });
  const env = cliEnv(sim.url, files);
  return {
    sim,
    env,
    close: async () => {
      await sim.close();
      env.cleanup();
    },
  };
}

export interface Editor {
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  stderr(): string;
  /** Exit code once the agent ended. */
  exited: Promise<number | null>;
}

/** Start `deepcode acp` and run `op` with a connected client; `answer` answers permission
 *  questions (default: the first option). Closes the agent's stdin afterwards. */
export async function withAgent<T>(rig: AcpRig, op: (ctx: ClientContext, editor: Editor) => Promise<T>, o: { answer?: (r: RequestPermissionRequest) => Promise<RequestPermissionResponse> | RequestPermissionResponse; env?: Record<string, string | undefined>; args?: string[]; client?: (app: ClientApp) => ClientApp } = {}): Promise<{ result: T; editor: Editor }> {
  const envs = Object.fromEntries(Object.entries({ ...rig.env.env, ...o.env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [BIN, ...(o.args ?? []), "acp"], { cwd: rig.env.root, env: envs });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const editor: Editor = { updates: [], permissions: [], stderr: () => stderr, exited };
  const base = client({ name: "deepcode-test-editor" })
    .onNotification("session/update", ({ params }) => void editor.updates.push(params))
    .onRequest("session/request_permission", async ({ params: r }) => {
      editor.permissions.push(r);
      return o.answer ? o.answer(r) : { outcome: { outcome: "selected", optionId: r.options[0].optionId } };
    });
  // The editor's own methods a test offers (fs/*, terminal/*).
  const app = o.client ? o.client(base) : base;
  const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  try {
    const result = await app.connectWith(stream, (ctx) => op(ctx, editor));
    return { result, editor };
  } finally {
    child.stdin.end();
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

export const call = (name: string, args: object) => ({ tool_calls: [{ name, arguments: args }] });

/** The text of every update of one kind, joined. */
export function chunks(editor: Editor, kind: string): string {
  return editor.updates.flatMap((n) => {
    const u = n.update as { sessionUpdate: string; content?: { type: string; text?: string } };
    return u.sessionUpdate === kind && u.content?.type === "text" ? [u.content.text ?? ""] : [];
  }).join("");
}

export type Msg = { role: string; content: string | null };
/** The messages of the rig's i-th chat request, as the simulator received them. */
export const messagesOf = (r: AcpRig, i: number): Msg[] => (r.sim.requests.filter((q) => q.path.endsWith("/chat/completions"))[i]?.json as { messages: Msg[] }).messages;
