/**
 * docs/installation-configuration.md's "A PostgreSQL backend" and docs/ci.md's PostgreSQL `env:`, through the real
 * CLI against the tests' PostgreSQL server (scripts/backend-servers.sh starts it without TLS) and a TLS front to it
 * (support/postgres-tls.ts), each command in a user's environment (support/user-env.ts):
 * - `sslmode`: the URL without it fails against the server without TLS (`pq: SSL is not enabled on the server`) and
 *   `?sslmode=disable` logs in; with TLS, no `sslmode` and `require` take a certificate no one vouched for,
 *   `verify-full` logs in with the CA's file and is refused with another CA's;
 * - a password in the URL: the CLI writes it into `credentials.json` and `workspaces/*-workspace.json` of its home
 *   and prints it in `pulumi whoami -v` and `pulumi about`;
 * - the password outside the URL, by ci.md's `env:` (PGPASSWORD) and by the page's `~/.pgpass`: `pulumi up` of a VPS
 *   and a preview with no change work, the provider's own commands on the backend too (it tags the stack), and the
 *   password is in no file of the CLI's home or the user's, nor in anything the CLI printed; a `~/.pgpass` others may
 *   read is ignored, with a warning.
 * The stacks are in the backend's default table, as the pages' URLs leave it; each has a name of its own and is
 * removed at the end.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { DEMO_API_KEY } from "../../emulator/index";
import { STACK_TAG } from "../../provider/impl/ownership/stack-identity";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { describeOnBackend } from "../engine/team-backends";
import { REFRESH_PROGRAM_CONFIG } from "../engine/refresh-output";
import { scratchDir } from "../package/support/offline-project";
import { REPO_ROOT, commandLines, recipe } from "./support/code-blocks";
import { startTlsFront, type TlsFront } from "./support/postgres-tls";
import { shell } from "./support/shell";
import { userEnv } from "./support/user-env";

jest.setTimeout(300_000);

/** A program of one VPS (its sizes are the stack's config), run by the Node.js language host beside the CLI. */
const PROGRAM = path.join(__dirname, "..", "engine", "fixtures", "refresh");
const CONFIG_PAGE = "docs/installation-configuration.md";
const CI_PAGE = "docs/ci.md";
/** The URL as the pages gave it before they said `sslmode`. */
const URL_WITH_PASSWORD = "postgres://<user>:<password>@<host>:<port>/<database>";

interface Server {
  user: string;
  password: string;
  host: string;
  port: string;
  database: string;
}

/** `text` with the pages' placeholders filled in for `server` (and `<ca.pem>`, the CA certificate's file). */
function fill(text: string, server: Server, caFile = ""): string {
  return text
    .replace(/<user>/g, server.user)
    .replace(/<password>/g, server.password)
    .replace(/<host>/g, server.host)
    .replace(/<port>/g, server.port)
    .replace(/<database>/g, server.database)
    .replace(/<ca\.pem>/g, caFile);
}

/** `span`, after checking that `page` shows it as code (`span`): the statement a test runs is the page's. */
function said(page: string, span: string): string {
  const text = fs.readFileSync(path.join(REPO_ROOT, page), "utf8").replace(/\s+/g, " ");
  if (!text.includes(`\`${span}\``)) throw new Error(`${page} does not say \`${span}\``);
  return span;
}

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).flatMap((name) => {
    const file = path.join(dir, name);
    return fs.statSync(file).isFile() ? [{ file, text: fs.readFileSync(file, "latin1") }] : [];
  });
}

describeOnBackend("postgres", "the pages' PostgreSQL URL and its password", () => {
  const scratch = scratchDir("postgres-backend");
  let emulator: TestEmulator;
  let front: TlsFront;
  /** The tests' server as scripts/backend-servers.sh started it: no TLS. */
  let plain: Server;
  /** The same server behind the TLS front. */
  let secure: Server;
  /** Stacks made, removed at the end: [their user's environment, name]. */
  const made: [Record<string, string>, string][] = [];

  beforeAll(async () => {
    const url = new URL(process.env.RIMU_TEST_POSTGRES_URL!);
    plain = {
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      host: url.hostname,
      port: url.port,
      database: url.pathname.slice(1),
    };
    emulator = await startTestEmulator({ timeScale: 0 });
    front = await startTlsFront(
      { host: plain.host, port: Number(plain.port) },
      path.join(scratch.dir, "tls"),
    );
    secure = { ...plain, port: String(front.port) };
  });
  afterAll(async () => {
    for (const [env, stack] of made) await run(`pulumi stack rm --yes --force ${stack}`, env);
    await front?.close();
    await emulator?.close();
    scratch.cleanup();
  });

  /** A user of their own: a home and the CLI's home in it, and the harness's settings (docs/testing.md). */
  function newUser(label: string): { home: string; pulumiHome: string; harness: Record<string, string> } {
    const home = path.join(scratch.dir, label, "home");
    const pulumiHome = path.join(home, ".pulumi");
    fs.mkdirSync(pulumiHome, { recursive: true });
    const harness = {
      HOME: home,
      PULUMI_HOME: pulumiHome,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    };
    return { home, pulumiHome, harness };
  }

  /** `command` in the program's directory with `env` (a user's: userEnv), whatever its exit code. */
  function run(command: string, env: Record<string, string>) {
    return shell(command, { cwd: PROGRAM, env, clean: true });
  }

  /**
   * A stack of the program on the backend `env` names, up with one VPS and previewed with no change; what the CLI
   * printed, and the tags the stack then has.
   */
  async function upAndPreview(env: Record<string, string>): Promise<{ printed: string[]; tags: string }> {
    const stack = `pg-${crypto.randomBytes(3).toString("hex")}`;
    const printed: string[] = [];
    const ok = async (command: string) => {
      const result = await run(command, env);
      printed.push(result.output);
      expect({ command, code: result.code, output: result.output }).toMatchObject({ code: 0 });
      return result.output;
    };
    await ok(`pulumi stack init ${stack}`);
    made.push([env, stack]);
    await ok(`pulumi config set rimuhosting:baseUrl ${emulator.baseUrl}`);
    for (const [key, value] of Object.entries(REFRESH_PROGRAM_CONFIG))
      await ok(`pulumi config set ${key} ${value}`);
    await ok("pulumi up --yes --skip-preview");
    await ok("pulumi preview --expect-no-changes");
    const tags = await ok("pulumi stack tag ls --json");
    await ok("pulumi stack export");
    await ok("pulumi whoami -v");
    await ok("pulumi about");
    await ok("pulumi destroy --yes --skip-preview");
    return { printed, tags };
  }

  /** The places where `secret` is, of `printed` (by index) and the files under `dirs`. */
  function carrying(secret: string, printed: string[], dirs: string[]): string[] {
    return [
      ...printed.flatMap((text, i) => (text.includes(secret) ? [`output ${i}`] : [])),
      ...dirs.flatMap((dir) =>
        filesUnder(dir).flatMap(({ file, text }) => (text.includes(secret) ? [file] : [])),
      ),
    ];
  }

  test("sslmode: the URL without it fails on a server without TLS; disable, require and verify-full as the page says", async () => {
    const query = (span: string) => (span.startsWith("?") ? span : `?${span}`);
    const login = async (server: Server, rest: string, caFile = "") => {
      const { harness } = newUser(`login-${crypto.randomBytes(3).toString("hex")}`);
      return run(
        `pulumi login '${fill(said(CONFIG_PAGE, URL_WITH_PASSWORD) + rest, server, caFile)}'`,
        userEnv(CONFIG_PAGE, {}, harness),
      );
    };

    const refused = await login(plain, "");
    for (const page of [CONFIG_PAGE, CI_PAGE])
      expect(refused.output).toContain(said(page, "pq: SSL is not enabled on the server"));
    expect(refused.code).not.toBe(0);
    // The CLI's error names the backend with `[credential]` in the password's place.
    expect(refused.output).toContain(`${plain.user}:${said(CONFIG_PAGE, "[credential]")}@`);
    expect(refused.output).not.toContain(plain.password);
    for (const page of [CONFIG_PAGE, CI_PAGE])
      expect(await login(plain, said(page, "?sslmode=disable"))).toMatchObject({ code: 0 });

    // With TLS: no sslmode, and require, take the front's certificate, which no CA given to them vouches for.
    for (const rest of ["", query(said(CONFIG_PAGE, "sslmode=require"))]) {
      const before = front.secured();
      expect(await login(secure, rest)).toMatchObject({ code: 0 });
      expect(front.secured()).toBeGreaterThan(before);
    }
    // disable asks for no TLS, even of a server that has it.
    const plainBefore = front.secured();
    expect(await login(secure, said(CONFIG_PAGE, "?sslmode=disable"))).toMatchObject({ code: 0 });
    expect(front.secured()).toBe(plainBefore);

    const verifyFull = said(CONFIG_PAGE, "?sslmode=verify-full&sslrootcert=<ca.pem>");
    const strange = await login(secure, verifyFull, front.otherCaFile);
    expect(strange.output).toContain(said(CONFIG_PAGE, "x509: certificate signed by unknown authority"));
    expect(strange.code).not.toBe(0);
    expect(await login(secure, verifyFull, front.caFile)).toMatchObject({ code: 0 });
  });

  test("a password in the URL: the CLI writes it into its home, and login, whoami -v and about print it", async () => {
    const url = `${fill(URL_WITH_PASSWORD, plain)}?sslmode=disable`;
    const written = (pulumiHome: string) =>
      filesUnder(pulumiHome)
        .filter(({ text }) => text.includes(plain.password))
        .map(({ file }) => path.relative(pulumiHome, file))
        .sort();
    said(CONFIG_PAGE, "workspaces/<project>-…-workspace.json");
    const workspaceFile = expect.stringMatching(/^workspaces\/refresh-[0-9a-f]+-workspace\.json$/);
    const stackOn = async (env: Record<string, string>) => {
      const stack = `pg-${crypto.randomBytes(3).toString("hex")}`;
      expect(await run(`pulumi stack init ${stack}`, env)).toMatchObject({ code: 0 });
      made.push([env, stack]);
    };

    // `pulumi login <url>`, as on a workstation.
    const user = newUser("login-url");
    const env = userEnv(CONFIG_PAGE, { PULUMI_CONFIG_PASSPHRASE: "" }, user.harness);
    const login = await run(`pulumi login '${url}'`, env);
    expect(login).toMatchObject({ code: 0 });
    expect(login.output).toContain(said(CONFIG_PAGE, "Logged in to …").replace(" …", " "));
    expect(login.output).toContain(url);
    await stackOn(env);
    expect((await run(said(CONFIG_PAGE, "pulumi whoami -v"), env)).output).toContain(`Backend URL: ${url}`);
    expect((await run(said(CONFIG_PAGE, "pulumi about"), env)).output).toContain(url);
    expect(written(user.pulumiHome)).toEqual([said(CONFIG_PAGE, "credentials.json"), workspaceFile]);

    // PULUMI_BACKEND_URL, as a workflow sets it: no credentials.json, and `about` prints the URL twice.
    const ci = newUser("env-url");
    const ciEnv = userEnv(
      CONFIG_PAGE,
      { [said(CONFIG_PAGE, "PULUMI_BACKEND_URL")]: url, PULUMI_CONFIG_PASSPHRASE: "" },
      ci.harness,
    );
    await stackOn(ciEnv);
    expect((await run("pulumi about", ciEnv)).output.split(url)).toHaveLength(3);
    expect(written(ci.pulumiHome)).toEqual([workspaceFile]);
  });

  test("ci.md's env: the password in PGPASSWORD, verify-full: up and preview work, the password is nowhere", async () => {
    const workspace = path.join(scratch.dir, "checkout");
    fs.mkdirSync(workspace, { recursive: true });
    fs.copyFileSync(front.caFile, path.join(workspace, "db-ca.pem"));
    const secrets: Record<string, string> = {
      PGPASSWORD: plain.password,
      PULUMI_CONFIG_PASSPHRASE: crypto.randomBytes(8).toString("hex"),
    };
    const block = parse(recipe("docs/ci.md#postgres-env")) as { env: Record<string, string> };
    const pageEnv = Object.fromEntries(
      Object.entries(block.env).map(([name, value]) => [
        name,
        fill(
          value
            .replace(/\$\{\{ secrets\.(\w+) \}\}/g, (_, secret: string) => secrets[secret]!)
            .replace(/\$\{\{ github\.workspace \}\}/g, workspace),
          secure,
        ),
      ]),
    );
    expect(pageEnv.PULUMI_BACKEND_URL).not.toContain(plain.password);
    const { home, harness } = newUser("ci-env");
    const env = userEnv(CI_PAGE, { ...pageEnv, RIMUHOSTING_APIKEY: DEMO_API_KEY }, harness);
    const before = front.secured();
    const { printed, tags } = await upAndPreview(env);
    expect(front.secured()).toBeGreaterThan(before);
    expect(Object.keys(JSON.parse(tags) as Record<string, unknown>)).toContain(STACK_TAG);
    expect(emulator.snapshot().filter((o) => !o.cancelled)).toEqual([]);
    expect(carrying(plain.password, printed, [home, workspace])).toEqual([]);
  });

  test("installation-configuration.md's ~/.pgpass: the login, up and preview work, the password is nowhere", async () => {
    const { home, harness } = newUser("pgpass");
    const env = userEnv(
      CONFIG_PAGE,
      { PULUMI_CONFIG_PASSPHRASE: crypto.randomBytes(8).toString("hex"), RIMUHOSTING_APIKEY: DEMO_API_KEY },
      harness,
    );
    const pgpass = path.join(home, ".pgpass");
    fs.writeFileSync(pgpass, fill(recipe("docs/installation-configuration.md#pgpass"), secure), {
      mode: 0o644,
    });
    const script = fill(recipe("docs/installation-configuration.md#postgres-login"), secure, front.caFile);
    const login = commandLines(script).find((line) => line.startsWith("pulumi login "));
    expect(login).toBeDefined();

    // Readable by others (as a new file often is): the driver ignores it, says so, and the login fails.
    const ignored = await run(login!, env);
    expect(ignored.output).toMatch(/WARNING: password file ".*\.pgpass" has group or world access/);
    expect(ignored.code).not.toBe(0);

    // The page's lines, as a user's shell runs them.
    const loggedIn = await run(script, env);
    expect({ code: loggedIn.code, output: loggedIn.output }).toMatchObject({ code: 0 });
    const printed = [ignored.output, loggedIn.output];
    const { printed: more, tags } = await upAndPreview(env);
    expect(Object.keys(JSON.parse(tags) as Record<string, unknown>)).toContain(STACK_TAG);
    const files = carrying(plain.password, [...printed, ...more], [home]);
    expect(files).toEqual([pgpass]);
  });
});
