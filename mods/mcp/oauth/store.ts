// Sign-in state of remote MCP servers: `~/.deepcode/mcp-oauth.json` (mode 0600, its folder
// 0700), one entry per server name and origin, so a server renamed or moved to another origin
// never receives another's tokens. An entry holds the client (registered, or configured — the
// configured secret is not written here), the tokens, the issuer they came from (a different
// issuer later drops both: SEP-2352), and the scopes asked for so far (a step-up asks for the
// union). Writes go through a temporary file and a rename; the file never reaches a log.
// Several processes sign in at once (two terminals, a subagent's server): each change reads the
// file again and writes it under a lock beside it (`<file>.lock`, src/lib/file-lock.ts), so
// one process's entry never overwrites another's.

import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withFileLock } from "../../../src/lib/file-lock.js";
import { isObject } from "../../../src/lib/json.js";
import { readRegularFileSync } from "../../../src/lib/regular-file.js";

export type AuthMethod = "none" | "client_secret_basic" | "client_secret_post";

export interface StoredClient {
  id: string;
  secret?: string;
  method: AuthMethod;
  /** The redirect URI it was registered with (a registered client only). */
  redirectUri?: string;
  registered: boolean;
}

export interface StoredTokens {
  access: string;
  /** "DPoP": bound to the server's DPoP key (oauth/dpop.ts); otherwise a Bearer token. */
  type?: "DPoP";
  refresh?: string;
  /** Epoch milliseconds. */
  expiresAt?: number;
  issuedAt?: number;
  scope?: string;
}

export interface SignIn {
  issuer?: string;
  client?: StoredClient;
  tokens?: StoredTokens;
  /** Every scope asked for so far (the next authorization asks for these too). */
  scopes?: string[];
  resource?: string;
  tokenEndpoint?: string;
  /** The scope a server's last refusal asked for, for the next sign-in. */
  wanted?: string;
}

const MAX_BYTES = 1024 * 1024;

/** A JSON object of entries by key in deepcode's home, mode 0600 in a 0700 folder, written
 *  through a temporary file and a rename (a crash never leaves half a file). The sign-in store
 *  and the authorization-server pins (oauth/pin.ts) are two of them. */
export class KeyedJsonFile<T extends object> {
  readonly file: string;

  constructor(private readonly home: string, name: string) {
    this.file = join(home, name);
  }

  get(key: string): Partial<T> {
    const all = this.readAll();
    const v = all[key];
    return isObject(v) ? (v as unknown as Partial<T>) : {};
  }

  /** Set one entry: the file is read again and written under its lock, so entries other
   *  processes wrote meanwhile are kept. */
  set(key: string, entry: Partial<T>): void {
    mkdirSync(this.home, { recursive: true, mode: 0o700 });
    withFileLock(this.file, () => {
      const all = this.readAll();
      all[key] = entry;
      this.writeAll(all);
    });
  }

  /** Forget an entry; true when there was one. */
  remove(key: string): boolean {
    return withFileLock(this.file, () => {
      const all = this.readAll();
      if (!(key in all)) return false;
      delete all[key];
      if (Object.keys(all).length === 0) rmSync(this.file, { force: true });
      else this.writeAll(all);
      return true;
    });
  }

  private readAll(): Record<string, unknown> {
    let text: string;
    try {
      text = readRegularFileSync(this.file, MAX_BYTES).data.toString("utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return Object.create(null) as Record<string, unknown>;
      throw new Error(`${this.file} cannot be read (${(err as Error).message}): fix it, or remove it to start it afresh`, { cause: err });
    }
    try {
      const v: unknown = JSON.parse(text);
      if (isObject(v)) return Object.assign(Object.create(null) as Record<string, unknown>, v);
    } catch {
      // damaged: named below, and replaced by the next write
    }
    throw new Error(`${this.file} is not a JSON object: remove it to start it afresh`);
  }

  /** Called under the lock. A write the disk refuses leaves the file as it was (and no
   *  temporary file) and throws an error naming the file. */
  private writeAll(all: Record<string, unknown>): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      chmodSync(tmp, 0o600);
      renameSync(tmp, this.file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw new Error(`could not write ${this.file}: ${(err as Error).message}`, { cause: err });
    }
  }
}

export class SignInStore extends KeyedJsonFile<SignIn> {
  constructor(home: string) {
    super(home, "mcp-oauth.json");
  }

  /** The key of a server's entry here and in the pins: its name and its origin. */
  static key(name: string, url: string): string {
    return `${name} ${new URL(url).origin}`;
  }
}
