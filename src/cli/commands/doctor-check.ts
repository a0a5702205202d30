// One line of `deepcode doctor`, shared by doctor.ts and the checks in commands/doctor-*.ts.

export type DoctorStatus = "ok" | "warn" | "fail";

export interface DoctorCheck {
  /** Stable, for tests and scripts: node, key, key-env, api, auth, settings, trust, managed, sandbox, instructions, rg, sessions, credentials. */
  id: string;
  status: DoctorStatus;
  label: string;
  detail: string;
  fix?: string;
}
