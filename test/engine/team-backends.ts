// The backends teams keep their stacks in, for the end-to-end files that log the CLI in to one: PostgreSQL
// (`pulumi login postgres://…`) and S3 (`pulumi login s3://…?endpoint=…`). scripts/backend-servers.sh starts a
// server of each and exports where they are (RIMU_TEST_POSTGRES_URL, RIMU_TEST_S3_URL and the S3 credentials);
// .ci/run starts them before the suite. Without them a file's tests are reported as skipped, the reason in their
// name; with CI=true they fail instead (CI must run them).
//
// Each test file gets a backend of its own on the shared server (a PostgreSQL table, an S3 bucket), so the stacks one
// file makes are not in another's `pulumi stack ls --all` (import-file and the take-back read every stack of the
// backend).
import * as crypto from "node:crypto";
import { describe } from "@jest/globals";
import { cliSkipReason } from "./stack-driver";

export type TeamBackendKind = "postgres" | "s3";

export interface TeamBackend {
  kind: TeamBackendKind;
  /** What `PULUMI_BACKEND_URL` is set to (`pulumi login <url>`). */
  url: string;
  /** What else the CLI needs in its environment for it (S3's credentials). */
  env: Record<string, string>;
  /** The secret in the URL or the environment that nothing the provider writes may carry. */
  secret: string;
}

const SERVER_VARIABLES: Record<TeamBackendKind, string[]> = {
  postgres: ["RIMU_TEST_POSTGRES_URL"],
  s3: ["RIMU_TEST_S3_URL", "RIMU_TEST_S3_ACCESS_KEY_ID", "RIMU_TEST_S3_SECRET_ACCESS_KEY"],
};

/** Why a test of `kind` cannot run here, or undefined. */
export function teamBackendSkipReason(
  kind: TeamBackendKind,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const missing = SERVER_VARIABLES[kind].filter((name) => !env[name]);
  if (missing.length === 0) return cliSkipReason(env);
  return (
    `no ${kind === "postgres" ? "PostgreSQL" : "S3"} server (${missing.join(", ")} unset: ` +
    '`eval "$(scripts/backend-servers.sh start)"` starts one and sets them)'
  );
}

/**
 * A describe for scenarios on a team's backend: skipped with the reason off CI when its server (or the CLI) is
 * missing; with CI=true that is an error.
 */
export function describeOnBackend(kind: TeamBackendKind, title: string, body: () => void): void {
  const reason = teamBackendSkipReason(kind);
  if (reason !== undefined && process.env.CI === "true")
    throw new Error(`CI=true, but ${title} cannot run: ${reason}`);
  // Skipped only off CI (above): the reason is in the name.
  if (reason !== undefined) describe.skip(`${title} (skipped: ${reason})`, body);
  else describe(`${title} (real CLI, ${kind} backend)`, body);
}

/** A backend of its own on the `kind` server: a table of PostgreSQL, or a new bucket of the S3 server. */
export async function newTeamBackend(kind: TeamBackendKind, label: string): Promise<TeamBackend> {
  const suffix = `${label.replace(/[^a-z0-9]/g, "")}${crypto.randomBytes(3).toString("hex")}`;
  if (kind === "postgres") {
    const base = new URL(process.env.RIMU_TEST_POSTGRES_URL!);
    base.searchParams.set("table", `pulumi_${suffix}`);
    return { kind, url: base.toString(), env: {}, secret: decodeURIComponent(base.password) };
  }
  const base = process.env.RIMU_TEST_S3_URL!;
  const endpoint = new URL(base.replace(/^s3:/, "http:")).searchParams.get("endpoint")!;
  const bucket = `rimu-${suffix}`;
  // moto checks no signature: a bare PUT makes the bucket, as `aws s3 mb` would on a real S3.
  const made = await fetch(`http://${endpoint}/${bucket}`, { method: "PUT" });
  if (!made.ok) throw new Error(`the S3 server at ${endpoint} made no bucket ${bucket}: ${made.status}`);
  const secret = process.env.RIMU_TEST_S3_SECRET_ACCESS_KEY!;
  return {
    kind,
    url: base.replace(/^s3:\/\/[^?/]+/, `s3://${bucket}`),
    env: {
      AWS_ACCESS_KEY_ID: process.env.RIMU_TEST_S3_ACCESS_KEY_ID!,
      AWS_SECRET_ACCESS_KEY: secret,
      AWS_REGION: process.env.RIMU_TEST_S3_REGION ?? "us-east-1",
    },
    secret,
  };
}
