/**
 * The environment a recipe runs in: what its page tells the user to set, what this machine needs to reach the
 * network, and what the harness adds from HARNESS_ENV, nothing else of the test's own process. So a recipe that
 * depends on a variable its page does not set fails (PULUMI_DEBUG_COMMANDS for `--event-log` was one: the harness
 * set it for every CLI run, the pages never did).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findPulumiCli } from "../../engine/cli-stack";
import { REPO_ROOT } from "./code-blocks";

/**
 * What the harness may add to a recipe's environment: the names docs/testing.md lists, each with why no recipe
 * depends on it (the page is the one list: add a name there, with its reason).
 */
export const HARNESS_ENV: readonly string[] = (() => {
  const page = fs.readFileSync(path.join(REPO_ROOT, "docs/testing.md"), "utf8");
  const list = /<!-- harness-env: start -->([\s\S]*?)<!-- harness-env: end -->/.exec(page)?.[1];
  if (!list) throw new Error("docs/testing.md has no <!-- harness-env: start/end --> list");
  return [...list.matchAll(/^- (.*?):/gm)].flatMap((m) => [...m[1]!.matchAll(/`(\w+)`/g)].map((n) => n[1]!));
})();

/** What this machine needs to reach the network (its CA and proxy): passed on when set, as a user's shell has. */
const MACHINE_ENV = [
  "HOME",
  "LANG",
  "TMPDIR",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "CURL_CA_BUNDLE",
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "NO_PROXY",
  "no_proxy",
];

/**
 * What `npm test` sets to spend less CPU (tools/test-with-cli.ts), passed on when set: each is in HARNESS_ENV, with
 * why it changes nothing a recipe does.
 */
const SPEED_ENV = ["NODE_COMPILE_CACHE", "GOGC"];
for (const name of SPEED_ENV)
  if (!HARNESS_ENV.includes(name))
    throw new Error(`${name} is not in docs/testing.md's list of what the harness sets`);

/**
 * PATH as a user who installed what the pages ask has it: Node.js, the Pulumi CLI (with the Node.js language host
 * beside it, as Pulumi's release has), the system's tools, and `extra` (stand-ins such as `npx` for the checkout);
 * not the YAML, Go and Python hosts, which only the pages of those languages ask for.
 */
export function userPath(extra: readonly string[] = []): string {
  const pulumi = findPulumiCli().path;
  const dirs = [...extra, path.dirname(process.execPath), ...(pulumi ? [path.dirname(pulumi)] : [])];
  for (const dir of ["/usr/local/bin", "/usr/bin", "/bin"]) if (fs.existsSync(dir)) dirs.push(dir);
  return dirs.join(path.delimiter);
}

/**
 * The directory of `exe` on this process's PATH, as a list (empty when it is not there): for the `extraPath` of a
 * page that puts it on PATH, such as the YAML language host of docs/native-plugin.md#language-hosts.
 */
export function dirOnPath(exe: string): string[] {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter))
    if (dir !== "" && fs.existsSync(path.join(dir, exe))) return [dir];
  return [];
}

/**
 * The environment of a recipe of `page` (a path from the repository's root): `pageSets`, each name of which the
 * page must show; `harness`, each name of which must be in HARNESS_ENV; PATH from userPath(); MACHINE_ENV.
 */
export function userEnv(
  page: string,
  pageSets: Record<string, string>,
  harness: Record<string, string> = {},
  extraPath: readonly string[] = [],
): Record<string, string> {
  const text = fs.readFileSync(path.join(REPO_ROOT, page), "utf8");
  for (const name of Object.keys(pageSets))
    if (!text.includes(name))
      throw new Error(`${page} never sets ${name}: a recipe may depend only on what its page sets`);
  for (const name of Object.keys(harness))
    if (!HARNESS_ENV.includes(name))
      throw new Error(
        `${name} is not in docs/testing.md's list of what the harness sets: add it there, with why no recipe needs it`,
      );
  const env: Record<string, string> = {};
  for (const name of [...MACHINE_ENV, ...SPEED_ENV])
    if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return { ...env, PATH: userPath(extraPath), ...harness, ...pageSets };
}
