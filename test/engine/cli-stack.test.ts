import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CliStack, findPulumiCli, withLazyTypeScript } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";

describe("findPulumiCli", () => {
  test("finds an executable pulumi on PATH", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-pulumi-"));
    try {
      fs.writeFileSync(path.join(dir, "pulumi"), "#!/bin/sh\n", { mode: 0o755 });
      expect(findPulumiCli({ PATH: `/nonexistent${path.delimiter}${dir}` })).toEqual({
        path: path.join(dir, "pulumi"),
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("says why when there is none", () => {
    expect(findPulumiCli({ PATH: "/nonexistent" }).reason).toMatch(/no `pulumi` binary on PATH/);
  });
});

describeCliOnly("stack config written to the stack's settings file", () => {
  let tmp: string;
  let stack: CliStack;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stack-config-file-"));
    const programDir = path.join(tmp, "program");
    fs.mkdirSync(programDir);
    fs.writeFileSync(path.join(programDir, "Pulumi.yaml"), "name: config-file\nruntime: yaml\n");
    stack = await CliStack.create({
      programDir,
      backendDir: path.join(tmp, "backend"),
      config: { "rimuhosting:apiKey": { value: "a-secret-key", secret: true } },
    });
  });
  afterAll(() => {
    stack?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("is what the CLI reads: plaintext values with and without a namespace, the removal of a key the CLI set, and the secret kept", async () => {
    const values = {
      "rimuhosting:baseUrl": "http://127.0.0.1:1/r",
      "rimuhosting:monthlyBudgetUsd": "25.00",
      memoryMb: "-1",
      vpss: '{"node-0":{"memoryMb":1024}}',
      note: "two\nlines: true",
    };
    await stack.setConfigs(values);
    await stack.setConfig("gone", { value: "set by the CLI", secret: true }); // stored as config-file:gone
    await stack.removeConfigs(["gone", "never-set"]);
    const read = JSON.parse(await stack.command("config", "--json", "--show-secrets")) as Record<
      string,
      { value: string; secret: boolean }
    >;
    const expected: Record<string, { value: string; secret: boolean }> = {
      "rimuhosting:apiKey": { value: "a-secret-key", secret: true },
    };
    for (const [key, value] of Object.entries(values))
      expected[key.includes(":") ? key : `config-file:${key}`] = { value, secret: false };
    expect(
      Object.fromEntries(Object.entries(read).map(([k, v]) => [k, { value: v.value, secret: v.secret }])),
    ).toEqual(expected);
  });
});

describeCliOnly("the stacks' keys (stack-keys.ts)", () => {
  let tmp: string;
  const stacks: CliStack[] = [];
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stack-keys-"));
    fs.mkdirSync(path.join(tmp, "program"));
    fs.writeFileSync(path.join(tmp, "program", "Pulumi.yaml"), "name: stack-keys\nruntime: yaml\n");
  });
  afterAll(() => {
    for (const stack of stacks) stack.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  /** A stack with one secret, its settings file, and the secret as the CLI reads it back. */
  async function keyed(options: { baseEnv?: Record<string, string> }) {
    const stack = await CliStack.create({
      programDir: path.join(tmp, "program"),
      backendDir: path.join(tmp, "backend"),
      config: { token: { value: "a-secret-token", secret: true } },
      ...options,
    });
    stacks.push(stack);
    const settings = fs.readFileSync(path.join(stack.programDir, `Pulumi.${stack.name}.yaml`), "utf8");
    const read = await stack.command("config", "get", "token");
    return { settings, read: read.trim(), env: stack.commandEnv() };
  }

  it("a harness's stack: the key service's, no passphrase salt; the secret encrypted, and read back", async () => {
    const { settings, read, env } = await keyed({});
    expect(env.NODE_OPTIONS).toBe(withLazyTypeScript(process.env.NODE_OPTIONS)); // TypeScript loaded at first use
    expect(settings).toMatch(/^secretsprovider: hashivault:\/\/rimu-tests$/m);
    expect(settings).not.toMatch(/encryptionsalt/);
    expect(settings).not.toContain("a-secret-token");
    expect(read).toBe("a-secret-token");
  });

  it("a recipe's stack (its page's environment): the passphrase, as a user's stack has it", async () => {
    const { PATH, HOME } = process.env;
    const { settings, read, env } = await keyed({ baseEnv: { PATH: PATH ?? "", HOME: HOME ?? "" } });
    expect(env.NODE_OPTIONS).toBeUndefined(); // the page's environment, as it is
    expect(settings).toMatch(/^encryptionsalt: /m);
    expect(settings).not.toMatch(/secretsprovider/);
    expect(read).toBe("a-secret-token");
  });
});

describe("TypeScript loaded at its first use (test/helpers/lazy-typescript.js, in a harness stack's NODE_OPTIONS)", () => {
  // The script runs from a file at the dynamic provider host's path (…/cmd/dynamic-provider/index.js) or elsewhere,
  // as a program does; it requires from this checkout.
  const script = `
    const req = require("node:module").createRequire(${JSON.stringify(path.join(__dirname, "..", "..", "x.js"))});
    const loaded = () => Object.keys(require.cache).some((f) => f.endsWith("/typescript/lib/typescript.js"));
    req("@pulumi/pulumi");
    const before = loaded();
    const ts = req("typescript");
    const source = ts.createSourceFile("a.ts", "const a: number = 1;", ts.ScriptTarget.Latest);
    const transpiled = ts.transpileModule("const a: number = 1;", {}).outputText.trim();
    console.log(JSON.stringify({ before, after: loaded(), statements: source.statements.length, transpiled,
      keys: Object.keys(ts).length, same: ts === req("typescript") }));`;
  const runAt = (file: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lazy-typescript-"));
    try {
      const at = path.join(dir, file);
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.writeFileSync(at, script);
      const run = spawnSync(process.execPath, [at], {
        env: { ...process.env, NODE_OPTIONS: withLazyTypeScript(undefined) },
        encoding: "utf8",
      });
      expect(run.stderr).toBe("");
      return JSON.parse(run.stdout) as Record<string, unknown>;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const whole = {
    after: true,
    statements: 1,
    transpiled: "var a = 1;",
    keys: expect.any(Number) as number,
    same: true,
  };

  it("a dynamic provider host loads the SDK without it; used, it gets all of it", () => {
    const seen = runAt("cmd/dynamic-provider/index.js");
    expect(seen).toEqual({ before: false, ...whole });
    expect(seen.keys).toBeGreaterThan(1000);
  });

  it("a program is left as users run it: the SDK loads TypeScript as it loads", () => {
    expect(runAt("index.js")).toEqual({ before: true, ...whole });
  });
});
