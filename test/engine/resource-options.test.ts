// docs/resource-options.md, run from the page through the real CLI against the emulator: one YAML stack (the native
// plugin of this checkout) taken through the page's steps, ignoreChanges, deleteBeforeReplace, protect with
// --ignore-protect and retainOnDelete, each checked against the emulator's orders and request log; and one stack of
// the page's dynamic `Vps` program for the option the page argues differs there, deleteBeforeReplace.
//
// What the test changes: the YAML program gets the `plugins:` entry of this checkout's plugin (a release's users
// get the plugin by download); each step runs with `--stack <this run's stack>`; the dynamic program's directory
// gets @pulumi/pulumi and this checkout as `pulumi-rimuhosting` in its node_modules, as npm would put them. Every
// command runs in a user's environment (test/docs/support/user-env.ts: the page sets nothing; the YAML host it sends
// the reader to), never this process's; the dynamic program's `pulumi up` is the page's, without an event log.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { commandLines, recipe } from "../docs/support/code-blocks";
import { shell } from "../docs/support/shell";
import { dirOnPath, userEnv } from "../docs/support/user-env";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { describeNative, linkPackages, PLUGIN_ENTRY, REPO_ROOT } from "./native-programs";

jest.setTimeout(600_000);

const DOMAINS = { web: "web.shop.example.com", mail: "mail.shop.example.com" };

/**
 * One emulator and a scratch directory per describe; `stackIn(dir)` makes a stack of the program in `dir` (a
 * directory of the scratch one), pointed at the emulator with its demo key.
 */
function useEmulator() {
  const ctx = {} as { emulator: TestEmulator; scratch: string; stackIn(dir: string): Promise<CliStack> };
  const stacks: CliStack[] = [];
  ctx.stackIn = async (dir) => {
    const stack = await CliStack.create({
      programDir: dir,
      backendDir: path.join(ctx.scratch, "backend"),
      // CliStack adds the harness's offlineCliEnv to it.
      baseEnv: userEnv("docs/resource-options.md", {}, {}, dirOnPath("pulumi-language-yaml")),
      config: {
        "rimuhosting:baseUrl": ctx.emulator.baseUrl,
        "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
      },
    });
    stacks.push(stack);
    return stack;
  };
  beforeAll(async () => {
    ctx.emulator = await startTestEmulator();
    ctx.scratch = fs.mkdtempSync(path.join(os.tmpdir(), "resource-options-"));
  });
  afterAll(async () => {
    for (const stack of stacks) stack.close();
    await ctx.emulator?.close();
    if (ctx.scratch) fs.rmSync(ctx.scratch, { recursive: true, force: true });
  });
  return ctx;
}

/** The emulator's orders of `domain`, oldest first: oid and whether cancelled. */
const ordersOf = (emulator: TestEmulator, domain: string) =>
  emulator
    .snapshot()
    .filter((o) => o.domainName === domain)
    .map((o) => ({ oid: o.orderOid, cancelled: o.cancelled }));

/** The routes of the requests that changed something since `mark`, in order (quotes left out). */
const changesSince = (emulator: TestEmulator, mark: number) =>
  emulator
    .requestLog()
    .slice(mark)
    .filter((e) => e.method !== "GET" && e.route !== "quoteNewVm")
    .map((e) => e.route);

describeNative("yaml", "docs/resource-options.md in YAML: one stack through the four options", () => {
  const ctx = useEmulator();

  test("ignoreChanges, deleteBeforeReplace, protect and --ignore-protect, retainOnDelete", async () => {
    const dir = path.join(ctx.scratch, "shop");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      `${recipe("docs/resource-options.md#yaml-program")}${PLUGIN_ENTRY}`,
    );
    const stack = await ctx.stackIn(dir);
    const lines = commandLines(recipe("docs/resource-options.md#yaml-steps"));
    expect(lines).toHaveLength(9);
    let next = 0;
    /** Runs the page's next step; its exit code and output. */
    const step = async (expected: RegExp) => {
      const line = lines[next++]!;
      expect(line).toMatch(expected);
      return shell(line.replace(/^pulumi (\w+( \w+)?)/, `pulumi $1 --stack ${stack.name}`), {
        cwd: dir,
        env: stack.commandEnv(),
        clean: true,
      });
    };
    const ok = async (expected: RegExp) => {
      const r = await step(expected);
      if (r.code !== 0) throw new Error(`step ${next} exited with ${r.code}:\n${r.output}`);
      return r.output;
    };

    await ok(/config set --secret rootPassword/);
    await ok(/^pulumi up --yes$/);
    const [web] = ordersOf(ctx.emulator, DOMAINS.web);
    const [mail] = ordersOf(ctx.emulator, DOMAINS.mail);
    expect([web?.cancelled, mail?.cancelled]).toEqual([false, false]);

    // ignoreChanges: a new password and key are no change (--expect-no-changes), and nothing is reinstalled.
    await ok(/config set --secret rootPassword/);
    await ok(/config set sshKey/);
    let mark = ctx.emulator.requestLog().length;
    await ok(/up --yes --expect-no-changes/);
    expect(changesSince(ctx.emulator, mark)).toEqual([]);

    // deleteBeforeReplace: the old web is cancelled before the new one is ordered.
    await ok(/config set dcLocation DCLONDON/);
    mark = ctx.emulator.requestLog().length;
    await ok(/^pulumi up --yes$/);
    expect(changesSince(ctx.emulator, mark)).toEqual(["deleteVps", "createVps"]);
    const webs = ordersOf(ctx.emulator, DOMAINS.web);
    expect(webs.map((o) => o.cancelled)).toEqual([true, false]);

    // protect: the destroy fails, naming mail, and cancels nothing.
    mark = ctx.emulator.requestLog().length;
    const refused = await step(/^pulumi destroy --yes$/);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/mail/);
    expect(refused.output).toMatch(/protect/);
    expect(changesSince(ctx.emulator, mark)).toEqual([]);
    expect(await stack.exportState()).toContain("::mail");
    expect(ordersOf(ctx.emulator, DOMAINS.mail)).toEqual([{ oid: mail!.oid, cancelled: false }]);

    // --ignore-protect with retainOnDelete: web is cancelled; mail leaves the stack, its order not cancelled.
    mark = ctx.emulator.requestLog().length;
    await ok(/destroy --yes --ignore-protect/);
    expect(changesSince(ctx.emulator, mark)).toEqual(["deleteVps"]);
    expect(await stack.exportState()).not.toContain("rimuhosting:index:Vps");
    expect(ordersOf(ctx.emulator, DOMAINS.mail)).toEqual([{ oid: mail!.oid, cancelled: false }]);
    expect(ordersOf(ctx.emulator, DOMAINS.web).every((o) => o.cancelled)).toBe(true);
  });
});

describeCliOnly("docs/resource-options.md on the dynamic Vps: deleteBeforeReplace", () => {
  const ctx = useEmulator();

  test("a replacement cancels the old VPS before it orders the new one", async () => {
    const dir = path.join(ctx.scratch, "dynamic");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: shop\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    fs.writeFileSync(path.join(dir, "package.json"), `{ "name": "shop", "main": "index.ts" }\n`);
    fs.writeFileSync(path.join(dir, "index.ts"), recipe("docs/resource-options.md#dynamic-program"));
    linkPackages(dir, ["@pulumi/pulumi"], { "pulumi-rimuhosting": REPO_ROOT });
    const stack = await ctx.stackIn(dir);
    await stack.command("up", "--yes");
    await stack.setConfig("dcLocation", { value: "DCLONDON" });
    const mark = ctx.emulator.requestLog().length;
    const replaced = await stack.command("up", "--yes");
    expect(replaced).toMatch(/\b1 replaced\b/);
    expect(changesSince(ctx.emulator, mark)).toEqual(["deleteVps", "createVps"]);
    expect(ordersOf(ctx.emulator, DOMAINS.web).map((o) => o.cancelled)).toEqual([true, false]);
  });
});
