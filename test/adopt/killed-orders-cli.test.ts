/**
 * `rimuhosting-killed-orders` (the built bin) and the plugin's `killed-orders` given what they cannot act on: each
 * says what is wrong with what the user gave and how to fix it, exits 2 (USAGE_EXIT), and cancels nothing. And an
 * order of the stack's name it cannot prove the stack's (a stand-in `pulumi` on PATH whose stack has no identity):
 * named, left billed, exit 1. On a backend whose lock it cannot see (the stand-in's `pulumi whoami` names S3), it
 * cancels not even an order it can prove a killed run's unless --no-run-in-progress says none runs. A fully qualified
 * --stack is the stack of its last part; one of another project is refused; the CLI's errors are quoted without a
 * URL's password. One marked with another stack identity, beside a stack that has one, is named and left billed,
 * exit 1 (issue 80). test/engine/killed-destroy.test.ts runs them on killed stacks through the real CLI.
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

test("an order of the stack's name it cannot prove the stack's: named, left billed, exit 1", async () => {
  const emulator = await startTestEmulator();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "killed-orders-"));
  try {
    const token = `stack-${createHash("sha256").update("shop/dev").digest("hex").slice(0, 32)}`;
    await emulator.api("POST", "/orders/new-vps", {
      new_order_request: {
        instantiation_options: { domain_name: "web.example.com", distro: "deb12.64" },
        meta_data: [{ key_name: STACK_TOKEN_KEY, value: token }],
      },
    });
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
    fs.mkdirSync(path.join(dir, "bin"));
    fs.writeFileSync(path.join(dir, "bin", "pulumi"), STAND_IN_PULUMI, { mode: 0o755 });
    const env = {
      PATH: [path.join(dir, "bin"), path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
      HOME: dir,
      RIMUHOSTING_APIKEY: DEMO_API_KEY,
      RIMUHOSTING_BASEURL: emulator.baseUrl,
    };
    for (const command of ["bin", "plugin"] as const) {
      const result = await run(command, ["--yes"], dir, env);
      expect(result).toMatchObject({ status: 1, stdout: "" });
      expect(result.stderr).toMatch(
        /web\.example\.com, \$[\d.]+ a month\) carries this stack's name .* stays billed/,
      );
      expect(result.stderr).toContain("see the warnings above");
    }
    const orders = await emulator.api("GET", "/orders;include_inactive=N");
    expect(JSON.stringify(orders)).toContain("web.example.com");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});

test("a fully qualified --stack is its last part's stack; one of another project is refused", async () => {
  const emulator = await startTestEmulator();
  const { dir, env } = standInProject({}, emulator.baseUrl);
  try {
    await emulator.api("POST", "/orders/new-vps", {
      new_order_request: {
        instantiation_options: { domain_name: "web.example.com", distro: "deb12.64" },
        meta_data: [{ key_name: STACK_TOKEN_KEY, value: TOKEN }],
      },
    });
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
  const identity = stackIdentityMark({
    backendUrl: url,
    project: "shop",
    stack: "dev",
    instance: "v1:salt",
    stackTag: "t-1",
  });
  // Exactly what a colleague's running first `up` has: its order, and a pending create carrying its nonce.
  const pending = {
    type: "creating",
    resource: { type: "rimuhosting:index:Vps", inputs: { __creationNonce: "n-1" } },
  };
  const { dir, env } = standInProject(
    {
      "Pulumi.dev.yaml": "encryptionsalt: v1:salt\n",
      "whoami.json": JSON.stringify({ url }),
      "tags.json": JSON.stringify({ [STACK_TAG]: "t-1" }),
      "ls.json": JSON.stringify([{ name: "dev", resourceCount: 0 }]),
      "export.json": JSON.stringify({ deployment: { resources: [], pending_operations: [pending] } }),
    },
    emulator.baseUrl,
  );
  try {
    await emulator.api("POST", "/orders/new-vps", {
      new_order_request: {
        instantiation_options: { domain_name: "web.example.com", distro: "deb12.64" },
        meta_data: [
          { key_name: STACK_TOKEN_KEY, value: TOKEN },
          { key_name: STACK_IDENTITY_KEY, value: identity },
          { key_name: CREATION_NONCE_KEY, value: "n-1" },
        ],
      },
    });
    const active = async () =>
      JSON.stringify(await emulator.api("GET", "/orders;include_inactive=N")).includes("web.example.com");
    const refused = await run("bin", ["--yes"], dir, env);
    expect({ active: await active(), stderr: refused.stderr }).toMatchObject({ active: true });
    expect(refused).toMatchObject({ status: 1, stdout: "" });
    expect(refused.stderr).toMatch(
      /^rimuhosting-killed-orders: \[RIMU_ERR_RUN_IN_PROGRESS\] stack dev's backend \(s3:\/\/team-bucket\) keeps its lock/,
    );
    expect(refused.stderr).toMatch(/web\.example\.com, \$[\d.]+ a month\)/);
    expect(refused.stderr).toContain("run `rimuhosting-killed-orders --yes --no-run-in-progress`");
    const told = await run("bin", ["--yes", "--no-run-in-progress"], dir, env);
    expect(told).toMatchObject({ status: 0, stdout: "" });
    expect(told.stderr).toMatch(/web\.example\.com, \$[\d.]+ a month\): cancelled/);
    expect(await active()).toBe(false);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});

// Issue 80: a run whose stack tag the backend did not keep (two providers setting it at once) marked its order with
// an identity no later run proves. The stack here has one (key material in its settings, its tag set): the order is
// named, and the command does not say none is left billed.
test("an order of the stack's name marked with another stack identity: named, left billed, exit 1", async () => {
  const emulator = await startTestEmulator();
  const { dir, env } = standInProject(
    {
      "Pulumi.dev.yaml": "encryptionsalt: v1:c2FsdA==:v1:AAAA:BBBB\n",
      "tags.json": JSON.stringify({ [STACK_TAG]: "0f1e2d3c" }),
    },
    emulator.baseUrl,
  );
  try {
    await emulator.api("POST", "/orders/new-vps", {
      new_order_request: {
        instantiation_options: { domain_name: "web.example.com", distro: "deb12.64" },
        meta_data: [
          { key_name: STACK_TOKEN_KEY, value: TOKEN },
          { key_name: STACK_IDENTITY_KEY, value: "id2-0123456789abcdef0123456789abcdef" },
        ],
      },
    });
    const result = await run("bin", ["--yes"], dir, env);
    expect(result).toMatchObject({ status: 1, stdout: "" });
    expect(result.stderr).toMatch(
      /web\.example\.com, \$[\d.]+ a month\) carries this stack's name .* another stack identity: .* stays billed/,
    );
    expect(result.stderr).toContain("see the warnings above");
    expect(result.stderr).not.toContain("is left billed.");
    const orders = await emulator.api("GET", "/orders;include_inactive=N");
    expect(JSON.stringify(orders)).toContain("web.example.com");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});
