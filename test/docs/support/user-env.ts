/**
 * The environment a recipe runs in: what its page tells the user to set, what this machine needs to reach the
 * network, and what the harness adds from HARNESS_ENV, nothing else of the test's own process. So a recipe that
 * depends on a variable its page does not set fails (PULUMI_DEBUG_COMMANDS for `--event-log` was one: the harness
 * set it for every CLI run, the pages never did). docs/testing.md lists HARNESS_ENV, each with its reason
 * (test/docs/user-env.test.ts holds the two equal).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findPulumiCli } from "../../engine/cli-stack";
import { REPO_ROOT } from "./code-blocks";

/** What the harness may add to a recipe's environment, and why no recipe depends on it. */
export const HARNESS_ENV: Readonly<Record<string, string>> = {
  PULUMI_HOME:
    "a Pulumi home per test, so that tests share no plugins or state with each other or the developer; " +
    "the default, `~/.pulumi`, works the same",
  PULUMI_BACKEND_URL:
    "a file backend per test in place of the page's own (an S3 bucket in docs/ci.md, Pulumi Cloud); " +
    "every page that runs `pulumi` sets one or says to log in",
  PULUMI_CONFIG_PASSPHRASE:
    "the file backend's passphrase, empty; pages that use a self-managed backend set it",
  PULUMI_SKIP_UPDATE_CHECK: "the CLI does not ask Pulumi's servers for a newer version; it only prints less",
  PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION:
    "the tests run offline: the plugins are on PATH or installed from a release on 127.0.0.1, never downloaded",
  PULUMI_NODEJS_TRANSPILE_ONLY:
    "TypeScript programs run without type-checking (seconds per operation); `npm test` type-checks them first",
  npm_config_audit: "npm prints no audit report; what it installs is the same",
  npm_config_fund: "npm prints no funding notice",
  npm_config_update_notifier: "npm does not look for a newer npm",
  npm_config_prefer_offline: "npm takes what its cache has before asking the registry; the same packages",
  npm_config_yes:
    "the answer `npx` asks for before it installs (`Ok to proceed? (y)`): no terminal in a test",
};

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
    if (!(name in HARNESS_ENV))
      throw new Error(
        `${name} is not in HARNESS_ENV: add it there and to docs/testing.md, with why no recipe needs it`,
      );
  const env: Record<string, string> = {};
  for (const name of MACHINE_ENV) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return { ...env, PATH: userPath(extraPath), ...harness, ...pageSets };
}
