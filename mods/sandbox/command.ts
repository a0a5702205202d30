// `deepcode sandbox` (the sandbox mod's subcommand): what contains Bash commands here, and
// `--profile`: the macOS Seatbelt profile deepcode would use for this project with these
// settings (seatbelt.ts), printed for a person on a Mac to try — deepcode does not run commands
// under it yet. Nothing is created: the plan is worked out with `create: false`.

import { isAbsolute } from "node:path";
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { UsageError, type SubcommandSpec } from "../../src/contract/index.js";
import { namedDirs, privateHome } from "./grant.js";
import { planFor } from "./plan.js";
import { seatbeltEnv, seatbeltProfile } from "./seatbelt.js";

export interface SandboxCommandFacts {
  root: string;
  deepcodeHome: string;
  /** Extra writable folders (additionalDirectories, sandbox.filesystem.allowWrite). */
  writable: readonly string[];
  allowRead: readonly string[];
  network: boolean;
  /** Hosts reached through the filtering proxy (settings sandbox.network.allowedDomains). */
  allowedDomains: readonly string[];
  /** One line: what contains commands here, or what protects the person without it. */
  line: string;
}

const HELP = `Usage: deepcode sandbox [options]

what contains Bash commands here (bubblewrap on Linux), or what protects you without it

Options:
  --profile   print the macOS Seatbelt profile (sandbox-exec) deepcode would use for this
              project; it has not run on a Mac yet, and deepcode on macOS does not use it
  -h, --help  show this help
`;

export function sandboxSubcommand(facts: () => SandboxCommandFacts): SubcommandSpec {
  return {
    name: "sandbox",
    description: "what contains Bash commands here; --profile prints the macOS Seatbelt profile to try",
    usage: "[--profile]",
    run(args, ctx) {
      let values: { profile?: boolean; help?: boolean };
      try {
        values = parseArgs({ args: [...args], options: { profile: { type: "boolean" }, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }).values;
      } catch (err) {
        throw new UsageError(`deepcode sandbox: ${err instanceof Error ? err.message : String(err)} (deepcode sandbox --help lists the options)`);
      }
      if (values.help) {
        ctx.out(HELP);
        return 0;
      }
      const f = facts();
      if (!values.profile) {
        ctx.out(`Bash sandbox: ${f.line}\n`);
        return 0;
      }
      const home = process.env.HOME && isAbsolute(process.env.HOME) ? process.env.HOME : homedir();
      const plan = planFor({
        root: f.root,
        cwd: f.root,
        home,
        deepcodeHome: f.deepcodeHome,
        writable: f.writable,
        readable: namedDirs(f.allowRead, home, f.root),
        privateHome: privateHome(f.deepcodeHome, f.root),
        network: f.network,
        ...(!f.network && f.allowedDomains.length > 0 ? { proxyPort: null } : {}),
        seccomp: null,
        platform: "darwin",
        create: false,
      });
      ctx.out(seatbeltProfile(plan));
      const env = seatbeltEnv(plan);
      const quote = (v: string): string => `'${v.replace(/'/g, "'\\''")}'`;
      const set = Object.entries(env.set).map(([k, v]) => `${k}=${quote(v)}`).join(" ");
      ctx.err(
        [
          "deepcode: this profile has not run on a Mac yet; deepcode on macOS runs commands uncontained and the permission gate decides.",
          `To try it: save it (deepcode sandbox --profile > deepcode.sb)${env.set.TMPDIR ? `, mkdir -p ${quote(env.set.TMPDIR)}` : ""}, then`,
          `  env ${env.unset.map((v) => `-u ${v}`).join(" ")} ${set} sandbox-exec -f deepcode.sb /bin/zsh -c 'your command'`,
          ...(f.allowedDomains.length > 0 && !f.network ? ["(settings allowedDomains: deepcode's filtering proxy has no localhost port on macOS yet, so this profile allows no network)"] : []),
          "",
        ].join("\n"),
      );
      return 0;
    },
  };
}
