/**
 * `rimuhosting-killed-orders` (the built bin) and the plugin's `killed-orders` given what they cannot act on: each
 * says what is wrong with what the user gave and how to fix it, exits 2 (USAGE_EXIT), and cancels nothing. And an
 * order of the stack's name it cannot prove the stack's (a stand-in `pulumi` on PATH whose stack has no identity):
 * named, left billed, exit 1. On a backend whose lock it cannot see (the stand-in's `pulumi whoami` names S3), it
 * cancels not even an order it can prove a killed run's unless --no-run-in-progress says none runs. A fully qualified
 * --stack is the stack of its last part; one of another project is refused; the CLI's errors are quoted without a
 * URL's password. Issue 92: one marked with another stack identity is another stack's business: one line counts it,
 * left billed, exit 0 (on a backend whose lock it cannot see too, without --no-run-in-progress); --other-stack-mark
 * with the mark --identity printed against the other backend still works; beside it an `id1-` one still fails
 * (exit 1); a lost tag race's order with a pending create of this stack carrying its nonce is cancelled.
 * test/engine/killed-destroy.test.ts runs them on killed stacks through the real CLI, and
 * test/engine/stack-identity.test.ts beside a colleague's live VPS.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { DEMO_API_KEY } from "../../emulator/index";
import { CREATION_NONCE_KEY, STACK_IDENTITY_KEY, STACK_TOKEN_KEY } from "../../provider/client/metadata-keys";
import { STACK_TAG, stackIdentityMark } from "../../provider/impl/ownership/stack-identity";
import { startTestEmulator } from "../helpers/start-emulator";

const REPO_ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(REPO_ROOT, "dist/provider/adopt/killed-orders.js");
const PLUGIN = path.join(REPO_ROOT, "bin/pulumi-resource-rimuhosting");
jest.setTimeout(60_000);

function run(command: "bin" | "plugin", args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const [exe, argv] =
    command === "bin" ? [process.execPath, [BIN, ...args]] : [PLUGIN, ["killed-orders", ...args]];
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    execFile(exe, argv, { encoding: "utf8", cwd, env, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    ),
  );
}

const NAMES = { bin: "rimuhosting-killed-orders", plugin: "pulumi-resource-rimuhosting killed-orders" };

describe.each(["bin", "plugin"] as const)("%s", (command) => {
  const name = NAMES[command];

  test("without --yes: it says the command cancels orders, with its usage", async () => {
    const result = await run(command, ["--stack", "dev"], os.tmpdir());
    expect(result).toMatchObject({ status: 2, stdout: "" });
    expect(result.stderr).toMatch(
      new RegExp(`^${name}: add --yes: the command cancels orders\\n\\nUsage: ${name} --yes`),
    );
  });

  test("outside a Pulumi project: it says where to run it", async () => {
    const result = await run(command, ["--yes"], os.tmpdir());
    expect(result).toEqual({
      status: 2,
      stdout: "",
      stderr:
        `${name}: [RIMU_ERR_INVALID_INPUT] run it in the directory of the stack's project (no Pulumi.yaml ` +
        "naming a project here). Fix the input named above.\n",
    });
  });

  test("in a project with no API key anywhere: it says how to set one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "killed-orders-"));
    try {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
      // No `pulumi` on PATH: the stack's config cannot be read, and the environment has no key.
      const env = {
        PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
        HOME: dir,
      };
      const result = await run(command, ["--yes"], dir, env);
      expect(result).toMatchObject({ status: 2, stdout: "" });
      expect(result.stderr).toMatch(
        new RegExp(
          `^${name}: Cancelling a killed run's orders needs a RimuHosting API key, and none is configured`,
        ),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * What the stand-in `pulumi` answers: a stack `dev` of a file backend, no config, no state, no key material; or what
 * the files of that name in $HOME say instead (show-name.err: its error, and exit 1).
 */
const STAND_IN_PULUMI = `#!/bin/sh
case "$1 $2" in
  "config --json") echo '{}' ;;
  "stack --show-name") if [ -f "$HOME/show-name.err" ]; then cat "$HOME/show-name.err" >&2; exit 1; fi; echo dev ;;
  "whoami --json") cat "$HOME/whoami.json" 2>/dev/null || echo '{"url":"file://'"$HOME"'/backend"}' ;;
  "stack ls") cat "$HOME/ls.json" 2>/dev/null || echo '[]' ;;
  "stack export") cat "$HOME/export.json" 2>/dev/null || echo '{"deployment":{}}' ;;
  "stack tag") if [ -f "$HOME/tags.json" ]; then cat "$HOME/tags.json"; else echo "unexpected: pulumi $*" >&2; exit 1; fi ;;
  *) echo "unexpected: pulumi $*" >&2; exit 1 ;;
esac
`;

/** A project `shop` in a new directory, the stand-in `pulumi` on PATH, `files` in it (its HOME); and its env. */
function standInProject(files: Record<string, string>, emulatorUrl = "http://127.0.0.1:9") {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "killed-orders-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
  fs.mkdirSync(path.join(dir, "bin"));
  fs.writeFileSync(path.join(dir, "bin", "pulumi"), STAND_IN_PULUMI, { mode: 0o755 });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  const env = {
    PATH: [path.join(dir, "bin"), path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
    HOME: dir,
    RIMUHOSTING_APIKEY: DEMO_API_KEY,
    RIMUHOSTING_BASEURL: emulatorUrl,
  };
  return { dir, env };
}

const TOKEN = `stack-${createHash("sha256").update("shop/dev").digest("hex").slice(0, 32)}`;

/** Places `domain` on the emulator's demo account, as a run whose marks are `metaData` would. */
const placeOrder = (
  emulator: Awaited<ReturnType<typeof startTestEmulator>>,
  metaData: { key_name: string; value: string }[],
  domain = "web.example.com",
) =>
  emulator.api("POST", "/orders/new-vps", {
    new_order_request: {
      instantiation_options: { domain_name: domain, distro: "deb12.64" },
      meta_data: metaData,
    },
  });

/**
 * The stand-in's answers for a stack `dev` whose state holds no resource and the create its killed run began and never
 * finished (a pending operation), whose inputs carry the creation nonce `nonce`.
 */
const pendingCreateOf = (nonce: string) => ({
  "ls.json": JSON.stringify([{ name: "dev", resourceCount: 0 }]),
  "export.json": JSON.stringify({
    deployment: {
      resources: [],
      pending_operations: [
        { type: "creating", resource: { type: "rimuhosting:index:Vps", inputs: { __creationNonce: nonce } } },
      ],
    },
  }),
});

/** Whether web.example.com is still billed. */
const billed = async (emulator: Awaited<ReturnType<typeof startTestEmulator>>) =>
  JSON.stringify(await emulator.api("GET", "/orders;include_inactive=N")).includes("web.example.com");

test("an order of the stack's name it cannot prove the stack's: named, left billed, exit 1", async () => {
  const emulator = await startTestEmulator();
  const { dir, env } = standInProject({}, emulator.baseUrl);
  try {
    await placeOrder(emulator, [{ key_name: STACK_TOKEN_KEY, value: TOKEN }]);
    for (const command of ["bin", "plugin"] as const) {
      const result = await run(command, ["--yes"], dir, env);
      expect(result).toMatchObject({ status: 1, stdout: "" });
      expect(result.stderr).toMatch(
        /web\.example\.com, \$[\d.]+ a month\) carries this stack's name .* stays billed/,
      );
      expect(result.stderr).toContain("see the warnings above");
    }
    expect(await billed(emulator)).toBe(true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});

test("a fully qualified --stack is its last part's stack; one of another project is refused", async () => {
  const emulator = await startTestEmulator();
  const { dir, env } = standInProject({}, emulator.baseUrl);
  try {
    await placeOrder(emulator, [{ key_name: STACK_TOKEN_KEY, value: TOKEN }]);
    const qualified = await run("bin", ["--yes", "--stack", "organization/shop/dev"], dir, env);
    expect(qualified).toMatchObject({ status: 1, stdout: "" });
    expect(qualified.stderr).toMatch(/web\.example\.com, \$[\d.]+ a month\) carries this stack's name/);
    const other = await run("bin", ["--yes", "--stack", "organization/blog/dev"], dir, env);
    expect(other).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "rimuhosting-killed-orders: [RIMU_ERR_INVALID_INPUT] --stack 'organization/blog/dev' names project " +
        "'blog', but this directory's Pulumi.yaml is project 'shop': run it in the directory of project 'blog', " +
        "or name a stack of 'shop'. Fix the input named above.\n",
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});

test("the CLI's error is quoted with a backend URL's password masked", async () => {
  const { dir, env } = standInProject({
    "show-name.err": "error: could not reach postgres://alice:s3cret@db.example.com/pulumi: refused\n",
  });
  try {
    const result = await run("bin", ["--yes"], dir, env);
    expect(result).toMatchObject({ status: 2, stdout: "" });
    expect(result.stderr).toContain("postgres://alice:***@db.example.com/pulumi");
    expect(result.stderr).not.toContain("s3cret");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("where the lock cannot be seen (S3): a killed run's provable order is only named, until --no-run-in-progress", async () => {
  const emulator = await startTestEmulator();
  const url = "s3://team-bucket";
  const identity = stackIdentityMark({ project: "shop", stack: "dev", stackTag: "t-1" });
  // Exactly what a colleague's running first `up` has: its order, and a pending create carrying its nonce.
  const { dir, env } = standInProject(
    {
      "Pulumi.dev.yaml": "encryptionsalt: v1:salt\n",
      "whoami.json": JSON.stringify({ url }),
      "tags.json": JSON.stringify({ [STACK_TAG]: "t-1" }),
      ...pendingCreateOf("n-1"),
    },
    emulator.baseUrl,
  );
  try {
    await placeOrder(emulator, [
      { key_name: STACK_TOKEN_KEY, value: TOKEN },
      { key_name: STACK_IDENTITY_KEY, value: identity },
      { key_name: CREATION_NONCE_KEY, value: "n-1" },
    ]);
    const refused = await run("bin", ["--yes"], dir, env);
    expect({ active: await billed(emulator), stderr: refused.stderr }).toMatchObject({ active: true });
    expect(refused).toMatchObject({ status: 1, stdout: "" });
    expect(refused.stderr).toMatch(
      /^rimuhosting-killed-orders: \[RIMU_ERR_RUN_IN_PROGRESS\] stack dev's backend \(s3:\/\/team-bucket\) keeps its lock/,
    );
    expect(refused.stderr).toMatch(/web\.example\.com, \$[\d.]+ a month\)/);
    expect(refused.stderr).toContain("run `rimuhosting-killed-orders --yes --no-run-in-progress`");
    const told = await run("bin", ["--yes", "--no-run-in-progress"], dir, env);
    expect(told).toMatchObject({ status: 0, stdout: "" });
    expect(told.stderr).toMatch(/web\.example\.com, \$[\d.]+ a month\): cancelled/);
    expect(await billed(emulator)).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});

// Issue 92: what killed-orders says when it cannot judge. The backend unreachable (every `pulumi` read fails): one
// clear refusal naming the CLI's error, exit 1. The states unread on a file backend (its lock seen, none held): the
// order of this stack's identity is named, left billed, with this command's own advice, not the destroy's.
test("the backend unreachable, or its states unread: said plainly, with this command's advice, exit 1", async () => {
  const emulator = await startTestEmulator();
  const url = "file:///srv/backend";
  const identity = stackIdentityMark({ project: "shop", stack: "dev", stackTag: "t-1" });
  const { dir, env } = standInProject(
    {
      "Pulumi.dev.yaml": "encryptionsalt: v1:salt\n",
      "whoami.json": JSON.stringify({ url }),
      "tags.json": JSON.stringify({ [STACK_TAG]: "t-1" }),
      "ls.json": "not json",
    },
    emulator.baseUrl,
  );
  try {
    await placeOrder(emulator, [
      { key_name: STACK_TOKEN_KEY, value: TOKEN },
      { key_name: STACK_IDENTITY_KEY, value: identity },
    ]);
    const unread = await run("bin", ["--yes"], dir, env);
    expect(unread).toMatchObject({ status: 1, stdout: "" });
    expect(unread.stderr).toContain(
      "rimuhosting-killed-orders: [RIMU_ERR_LEFT_BILLED] This sweep cannot tell whether a killed run of this " +
        "stack left orders billed in no state: the backend's states could not be read (",
    );
    expect(unread.stderr).toContain(
      "Fix what could not be read, or cancel each order named above in the control panel (or adopt it with " +
        "`adoptOrderOid`); then run this command again: it judges again.\n",
    );
    // Not the destroy's advice (its kept VPS): this command keeps none.
    expect(unread.stderr).not.toContain("cancels the VPS it kept");
    // The backend unreachable: `pulumi whoami` fails as every other read would.
    fs.writeFileSync(path.join(dir, "whoami.json"), "");
    fs.writeFileSync(
      path.join(dir, "bin", "pulumi"),
      STAND_IN_PULUMI.replace(
        `"whoami --json") cat "$HOME/whoami.json" 2>/dev/null || echo '{"url":"file://'"$HOME"'/backend"}' ;;`,
        `"whoami --json") echo "error: could not reach postgres://u:pw@db:5432/state: refused" >&2; exit 1 ;;`,
      ),
      { mode: 0o755 },
    );
    const unreachable = await run("bin", ["--yes", "--no-run-in-progress"], dir, env);
    expect(unreachable).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "rimuhosting-killed-orders: [RIMU_ERR_BACKEND_UNREAD] the backend of stack dev could not be read " +
        "(`pulumi whoami --json` failed: error: could not reach postgres://u:***@db:5432/state: refused), so " +
        "neither its lock nor its states can be: no order was judged. Nothing was written, cancelled or taken " +
        "back. Fix the cause named above and run the command again; where `pulumi stack ls --all` does not " +
        "finish on a PostgreSQL or S3 backend, run it with PULUMI_DIY_BACKEND_PARALLEL=1 " +
        "(docs/troubleshooting.md).\n",
    });
    expect(await billed(emulator)).toBe(true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});

/** The settings file's key material (the identity hashes none of it), and stack shop/dev's identity by its tag. */
const SALT = "v1:c2FsdA==:v1:AAAA:BBBB";
const markOf = (stackTag: string) => stackIdentityMark({ project: "shop", stack: "dev", stackTag });

// Issue 92: a same-named stack of another backend (a colleague's `dev` in bucket team-b) has a live VPS, carrying its
// identity. It is not this stack's business: one line counts it (how many, their fee, where to see them), no warning,
// exit 0, also where the lock cannot be seen (no --no-run-in-progress needed). --identity run against that backend
// prints the mark the order carries; passed back with --other-stack-mark (kept for scripts that pass it), the same.
test("another mark: one line, exit 0; with --other-stack-mark that --identity printed, the same", async () => {
  const emulator = await startTestEmulator();
  const theirs = markOf("b-tag");
  const ours = standInProject(
    { "Pulumi.dev.yaml": `encryptionsalt: ${SALT}\n`, "tags.json": JSON.stringify({ [STACK_TAG]: "a-tag" }) },
    emulator.baseUrl,
  );
  // Run from another copy of the project (its own settings file, another salt): the mark is the backend's alone.
  const colleagues = standInProject({
    "Pulumi.dev.yaml": "encryptionsalt: v1:another-copy-of-the-project\n",
    "whoami.json": JSON.stringify({ url: "s3://team-b" }),
    "tags.json": JSON.stringify({ [STACK_TAG]: "b-tag" }),
  });
  const ONE_LINE =
    "1 order of stack dev's name ($10.00 a month) carries another stack's identity: not this stack's (a stack " +
    "dev of project shop in another backend, or this stack's before `pulumi stack rm`), left alone; the " +
    "account's bill counts it (`rimuhosting-bill`, the control panel's orders).";
  /** The lines of `text` that speak of another stack's orders. */
  const aboutOthers = (text: string) =>
    text.split("\n").filter((line) => /another stack|other-stack-mark/.test(line));
  try {
    await placeOrder(emulator, [
      { key_name: STACK_TOKEN_KEY, value: TOKEN },
      { key_name: STACK_IDENTITY_KEY, value: theirs },
    ]);
    for (const command of ["bin", "plugin"] as const) {
      const told = await run(command, ["--yes"], ours.dir, ours.env);
      expect(told).toEqual({
        status: 0,
        stdout: "",
        stderr:
          `${NAMES[command]}: ${ONE_LINE}\n` +
          `${NAMES[command]}: no order of a killed run of stack dev is left billed.\n`,
      });
    }
    // Run against the colleague's backend, --identity prints the mark the order carries: theirs.
    const shown = await run("bin", ["--identity"], colleagues.dir, colleagues.env);
    expect(shown).toMatchObject({ status: 0, stdout: `${theirs}\n` });
    const own = await run("plugin", ["--identity", "--stack", "dev"], ours.dir, ours.env);
    expect(own).toMatchObject({ status: 0, stdout: expect.stringMatching(/^id3-[0-9a-f]{32}\n$/) });
    expect(own.stdout).not.toBe(shown.stdout);
    const acknowledged = ["--yes", "--other-stack-mark", shown.stdout.trim()];
    for (const command of ["bin", "plugin"] as const) {
      const told = await run(command, acknowledged, ours.dir, ours.env);
      expect(told).toMatchObject({ status: 0, stdout: "" });
      expect(aboutOthers(told.stderr)).toEqual([
        `${NAMES[command]}: ${ONE_LINE.replace("$10.00 a month", "$10.00 a month, all of marks --other-stack-mark gave")}`,
      ]);
      expect(told.stderr).toContain("no order of a killed run of stack dev is left billed.");
    }
    expect(await billed(emulator)).toBe(true);
    // A mark of no form it places is refused, naming it.
    const wrong = await run("bin", ["--yes", "--other-stack-mark", "b-tag"], ours.dir, ours.env);
    expect(wrong).toMatchObject({ status: 2, stdout: "" });
    expect(wrong.stderr).toMatch(
      /^rimuhosting-killed-orders: --other-stack-mark 'b-tag' is no stack identity mark/,
    );
    // This stack's own mark given as another's is refused, naming it: its own orders would be left alone.
    const self = await run("plugin", ["--yes", "--other-stack-mark", own.stdout.trim()], ours.dir, ours.env);
    expect(self).toMatchObject({ status: 2, stdout: "" });
    expect(self.stderr).toContain(`--other-stack-mark ${own.stdout.trim()} is stack dev's own identity`);
    // Where the lock cannot be seen (this stack on S3 too): the same one line, exit 0, no --no-run-in-progress.
    fs.writeFileSync(path.join(ours.dir, "whoami.json"), JSON.stringify({ url: "s3://team-a" }));
    for (const args of [["--yes"], acknowledged]) {
      const unseen = await run("bin", args, ours.dir, ours.env);
      expect(unseen).toMatchObject({ status: 0, stdout: "" });
      expect(aboutOthers(unseen.stderr)).toHaveLength(1);
      expect(unseen.stderr).toContain("carries another stack's identity: not this stack's");
      expect(unseen.stderr).toContain("no order of a killed run of stack dev is left billed.");
    }
    fs.rmSync(path.join(ours.dir, "whoami.json"));
    // Beside it, an order of this stack's name that no identity proves (an older release's mark): named, exit 1.
    await placeOrder(
      emulator,
      [
        { key_name: STACK_TOKEN_KEY, value: TOKEN },
        { key_name: STACK_IDENTITY_KEY, value: "id1-0123456789abcdef0123456789abcdef" },
      ],
      "api.example.com",
    );
    const unproven = await run("bin", ["--yes"], ours.dir, ours.env);
    expect(unproven).toMatchObject({ status: 1, stdout: "" });
    expect(unproven.stderr).toMatch(/Warning: order \d+ \(api\.example\.com, .* carries no stack identity/);
    expect(unproven.stderr).toContain(ONE_LINE);
    expect(unproven.stderr).toContain("see the warnings above");
  } finally {
    fs.rmSync(ours.dir, { recursive: true, force: true });
    fs.rmSync(colleagues.dir, { recursive: true, force: true });
    await emulator.close();
  }
});

// A run of this stack whose stack tag the backend did not keep (two providers setting it at once: stack-identity.ts)
// marked its order with a mark no later run derives, the same to see as another stack's. With checkpoints on, the
// engine's record tells them apart: a pending create of this stack's state carries the order's nonce. So it is this
// stack's killed create, and cancelled.
test("a lost tag race's order, a pending create of this stack carrying its nonce: this stack's, cancelled", async () => {
  const emulator = await startTestEmulator();
  const { dir, env } = standInProject(
    {
      "Pulumi.dev.yaml": `encryptionsalt: ${SALT}\n`,
      "tags.json": JSON.stringify({ [STACK_TAG]: "kept-tag" }),
      ...pendingCreateOf("n-lost"),
    },
    emulator.baseUrl,
  );
  try {
    await placeOrder(emulator, [
      { key_name: STACK_TOKEN_KEY, value: TOKEN },
      { key_name: STACK_IDENTITY_KEY, value: markOf("lost-tag") },
      { key_name: CREATION_NONCE_KEY, value: "n-lost" },
    ]);
    const result = await run("bin", ["--yes"], dir, env);
    expect({ billed: await billed(emulator), ...result }).toMatchObject({
      billed: false,
      status: 0,
      stdout: "",
    });
    expect(result.stderr).toMatch(/web\.example\.com, \$[\d.]+ a month\): cancelled\. .*\(a lost tag race\)/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});
