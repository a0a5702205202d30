// Where the API key comes from: DEEPSEEK_API_KEY, else <home>/credentials (written by
// `deepcode setup`, mode 0600, lines of KEY=value). The key itself is never printed, logged
// or stored anywhere else; messages name only its source.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withFileLock } from "../lib/file-lock.js";
import { writeWholeSync } from "../lib/whole-file.js";
import { keyFromEnv } from "./key-env.js";

export interface ApiKey {
  key: string;
  /** For messages: "DEEPSEEK_API_KEY" or the credentials file's path. */
  source: string;
}

export function credentialsFile(home: string): string {
  return join(home, "credentials");
}

export function resolveApiKey(env: NodeJS.ProcessEnv, home: string, keyEnv = "DEEPSEEK_API_KEY"): ApiKey | undefined {
  const fromEnv = keyFromEnv(env, keyEnv)?.trim();
  if (fromEnv) return { key: fromEnv, source: keyEnv };
  const file = credentialsFile(home);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined; // no credentials file: no stored key
  }
  for (const line of text.split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (m && m[1] === keyEnv && m[2]) return { key: m[2].replace(/^["']|["']$/g, ""), source: file };
  }
  return undefined;
}

export function saveApiKey(home: string, key: string, keyEnv = "DEEPSEEK_API_KEY"): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = credentialsFile(home);
  // Whole or not at all (written in place, a full disk would leave the file empty: every key
  // in it lost), and under its lock: a key another deepcode saved meanwhile is kept.
  withFileLock(file, () => {
    let lines: string[];
    try {
      lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() && !l.startsWith(`${keyEnv}=`));
    } catch {
      lines = []; // first key: a new file
    }
    writeWholeSync(file, `${[...lines, `${keyEnv}=${key}`].join("\n")}\n`, { mode: 0o600 });
  });
  return file;
}

/** What to do without a key, naming the credentials file deepcode really reads (under
 *  DEEPCODE_HOME when it is set). */
export function noKeyHelp(home: string): string {
  return `No DeepSeek API key found (neither DEEPSEEK_API_KEY nor ${credentialsFile(home)}). Set one of:
  export DEEPSEEK_API_KEY=sk-...        (this shell)
  deepcode setup                         (stores it in ${credentialsFile(home)}, mode 0600)
Get a key at https://platform.deepseek.com/api_keys`;
}
