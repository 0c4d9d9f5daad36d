/**
 * How the provider's own `pulumi` commands meet a team's backend (PostgreSQL, S3, or any self-managed one): the
 * environment its reads of the stacks' states run in, and the backend's URL as a message may name it (issue 83).
 *
 * The URL: `pulumi whoami --json` prints the URL the CLI logged in with, credentials and all
 * (`postgres://user:password@host/db`, a `?password=` or an access key in the query), and nothing the provider writes
 * (messages, logs, files) may carry a backend's credentials. The user name and the host stay (they say which
 * backend); the password and every query value whose name says it is a secret become `***`.
 *
 * The reads (the stacks' states: ownership/backend-states.ts, import-file): on a PostgreSQL backend, `pulumi stack ls` (with or without `--all`) never finishes once the
 * backend holds 4 or more stacks on a 2-core machine: the CLI reads the stacks with PULUMI_DIY_BACKEND_PARALLEL
 * workers (10 unless set), each holding a connection of a pool of 4 (tried with CLI v3.276.0 and PostgreSQL 15: 5
 * stacks hang with 4 or more workers, and list in 0.3 s with 1 or 3). So these reads run with one worker, unless the
 * user chose a number; a file or S3 backend reads its few stacks one by one as fast. docs/troubleshooting.md, "The
 * backend's states cannot be read", tells users the same for their own `pulumi stack ls`.
 */

import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * A query parameter whose value is a secret: a password, a key, a token, a credential, an auth string, a signature.
 * The one list, for both uses of a backend's URL below.
 */
const SECRET_PARAMETER = /pass|secret|key|token|cred|auth|sig/i;

/**
 * What to do with a backend URL's credentials: `mask` them for a message (the user name stays: it says which
 * backend), or `drop` them (user name too) for the stack identity's hash (ownership/stack-identity.ts), a file
 * backend's path resolved from `cwd` as the CLI resolves it (two users' `file://~` are two backends).
 */
export type CredentialMode = "mask" | { drop: { cwd: string } };

/**
 * `url` without its credentials (see CredentialMode). Masked, text that is no URL gives its scheme only; dropped,
 * anything between `//` and `@` goes (only hashed, never shown).
 */
export function backendUrlWithoutCredentials(url: string, mode: CredentialMode = "mask"): string {
  const drop = mode !== "mask";
  if (drop && url.startsWith("file://")) {
    const [rawPath = "", query] = url.slice("file://".length).split("?");
    let path = decodeURIComponent(rawPath);
    if (path === "~" || path.startsWith("~/")) path = join(homedir(), path.slice(1));
    path = resolve(mode.drop.cwd, path);
    return `file://${path}${query === undefined ? "" : `?${query}`}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    if (drop) return url.replace(/\/\/[^/@]*@/, "//");
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0];
    return scheme === undefined ? "(a backend URL that could not be read)" : `${scheme}…`;
  }
  if (drop) {
    parsed.username = "";
    parsed.password = "";
    for (const name of [...parsed.searchParams.keys()])
      if (SECRET_PARAMETER.test(name)) parsed.searchParams.delete(name);
    return parsed.toString();
  }
  if (parsed.password !== "") parsed.password = "***";
  for (const name of [...parsed.searchParams.keys()])
    if (SECRET_PARAMETER.test(name)) parsed.searchParams.set(name, "***");
  // URL writes `***` in the password as %2A%2A%2A; the query's as is.
  return parsed.toString().replace(/%2A%2A%2A/g, "***");
}

/** Trailing characters a message puts after a URL (a quote, a colon, a full stop), not part of it. */
const AFTER_URL = /["'),.;:\]]+$/;

/**
 * `text` (the CLI's error output, a message quoting it) with every URL in it masked as above: the CLI's errors about
 * a self-managed backend quote its URL, password and all (`postgres://user:password@host/db`).
 */
export function textWithoutUrlCredentials(text: string): string {
  return text.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, (token) => {
    const after = AFTER_URL.exec(token)?.[0] ?? "";
    return backendUrlWithoutCredentials(token.slice(0, token.length - after.length)) + after;
  });
}

/** The variable that sets how many stacks the CLI reads at once from a self-managed backend. */
export const BACKEND_PARALLEL_VARIABLE = "PULUMI_DIY_BACKEND_PARALLEL";

/** `env` with one reader of the backend at a time, unless the user set how many. */
export function backendReadEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env[BACKEND_PARALLEL_VARIABLE]) return env;
  return { ...env, [BACKEND_PARALLEL_VARIABLE]: "1" };
}
