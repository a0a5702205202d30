// A temporary project, home and managed-policy folder for settings tests.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { loadSettings, type LoadedSettings } from "../../src/cli/settings/index.js";

export interface SettingsFixture {
  root: string;
  home: string;
  managedPath: string;
  files: { user: string; project: string; local: string; flag: string; managed: string; dropIn: (name: string) => string };
  /** Write a file (objects as JSON, strings as-is), creating folders. */
  put(file: string, content: unknown): string;
  load(withFlag?: boolean): LoadedSettings;
  cleanup(): void;
}

export function settingsFixture(): SettingsFixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "deepcode-settings-")));
  const root = join(base, "project");
  const home = join(base, "home", ".deepcode");
  const managedPath = join(base, "etc", "deepcode", "managed-settings.json");
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  const files = {
    user: join(home, "settings.json"),
    project: join(root, ".deepcode", "settings.json"),
    local: join(root, ".deepcode", "settings.local.json"),
    flag: join(base, "flag-settings.json"),
    managed: managedPath,
    dropIn: (name: string) => join(dirname(managedPath), "managed-settings.d", name),
  };
  return {
    root,
    home,
    managedPath,
    files,
    put(file, content) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return file;
    },
    load(withFlag = false) {
      return loadSettings({ root, home, managedPath, flagFile: withFlag ? files.flag : undefined });
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}
