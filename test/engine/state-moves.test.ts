// The state operations of docs/troubleshooting.md#moving-state, run from the page through the real CLI against one
// emulator, on the native plugin (YAML): `pulumi state move` of a VPS between two projects' stacks, `pulumi stack
// migrate` of the destination stack to a second file backend, and the recovery of an `up` killed between the order
// and its answer (where `refresh --import-pending-creates` imports nothing with CLI v3.260.0). One VPS goes through
// the first two; the third reuses the source project. Then the page's `state move` once more, on two projects of
// the dynamic `Vps`. Each step checks that nothing was ordered, changed or cancelled.
//
// What the test changes in a block's lines: the page's stack names (`dev`, `prod`) become this run's (CliStack adds
// a random suffix), `../web` the destination's scratch directory, the backends `file://~` and
// `file:///srv/pulumi-state` two scratch directories, and 1234567 the order the emulator took. Every command runs in
// a user's environment (test/docs/support/user-env.ts: what the page sets, the harness list, the YAML host the page
// sends the reader to), never this process's.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { commandLines, recipe } from "../docs/support/code-blocks";
import { shell } from "../docs/support/shell";
import { dirOnPath, userEnv } from "../docs/support/user-env";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { liveOrders, VPS_TYPE } from "./e2e-support";
import { runKilled } from "./engine-kill";
import { killedOrders } from "./killed-orders-run";
import {
  describeNative,
  linkPackages,
  NATIVE_VPS_TYPE,
  REPO_ROOT,
  writeYamlProgram,
} from "./native-programs";

jest.setTimeout(600_000);

/** The environment the stacks' commands start from (CliStack adds the harness's offlineCliEnv to it). */
const PAGE_ENV = userEnv("docs/troubleshooting.md", {}, {}, dirOnPath("pulumi-language-yaml"));

/** A YAML program body declaring one VPS `name`; the destination declares the source's with the same inputs. */
const vpsProgram = (name: string) => `resources:
  ${name}:
    type: rimuhosting:Vps
    properties:
      domainName: ${name}.moves.example.com
      dcLocation: DCDALLAS
outputs:
  orderOid: \${${name}.orderOid}
`;

/** A TypeScript project `name` of one dynamic Vps `web`, with this checkout as `pulumi-rimuhosting`. */
function dynamicProgram(dir: string, name: string): string {
  const project = path.join(dir, name);
  fs.mkdirSync(project, { recursive: true });
  fs.writeFileSync(path.join(project, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  fs.writeFileSync(path.join(project, "package.json"), `{ "name": "${name}", "main": "index.ts" }\n`);
  fs.writeFileSync(
    path.join(project, "index.ts"),
    `import { Vps } from "pulumi-rimuhosting";\n\nexport const orderOid = new Vps("web", { domainName: "dynamic.moves.example.com", dcLocation: "DCDALLAS" }).orderOid;\n`,
  );
  linkPackages(project, ["@pulumi/pulumi"], { "pulumi-rimuhosting": REPO_ROOT });
  return project;
}

interface StateResource {
  urn: string;
  type: string;
  id?: string;
}

describeNative("yaml", "moving state: state move, stack migrate, import-pending-creates", () => {
  let emulator: TestEmulator;
  let scratch: string;
  let shop: CliStack; // project `shop`: the page's `dev`
  let web: CliStack; // project `web`: the page's `prod`
  const backend = () => path.join(scratch, "backend");
  const otherBackend = () => path.join(scratch, "other-backend");
  const config = () => ({
    "rimuhosting:baseUrl": emulator.baseUrl,
    "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
  });

  /** Runs the recipe's lines, each after `ours`, in one bash in `cwd` (an `export` holds for the lines after it). */
  async function runRecipe(
    address: string,
    cwd: string,
    env: NodeJS.ProcessEnv,
    ours: (l: string) => string,
  ) {
    const script = ["set -e", ...commandLines(recipe(address)).map(ours)].join("\n");
    const result = await shell(script, { cwd, env, clean: true });
    if (result.code !== 0)
      throw new Error(`${address} exited with ${result.code}:\n${script}\n${result.output}`);
    return result.output;
  }

  const vpssOf = async (stack: CliStack, env: NodeJS.ProcessEnv = stack.commandEnv()) => {
    const result = await shell(`pulumi stack export --stack ${stack.name}`, {
      cwd: stack.programDir,
      env,
      clean: true,
    });
    if (result.code !== 0) throw new Error(result.output);
    const state = JSON.parse(result.output) as { deployment: { resources?: StateResource[] } };
    return (state.deployment.resources ?? []).filter((r) => r.type === NATIVE_VPS_TYPE);
  };
  const mutations = () => emulator.requestLog().filter((e) => e.method !== "GET" && e.route !== "quoteNewVm");

  beforeAll(async () => {
    emulator = await startTestEmulator();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "state-moves-"));
    const shopDir = writeYamlProgram("shop", vpsProgram("web"));
    const webDir = writeYamlProgram("web", vpsProgram("web"));
    shop = await CliStack.create({
      programDir: shopDir,
      backendDir: backend(),
      config: config(),
      baseEnv: PAGE_ENV,
    });
    web = await CliStack.create({
      programDir: webDir,
      backendDir: backend(),
      config: config(),
      baseEnv: PAGE_ENV,
    });
  });
  afterAll(async () => {
    for (const stack of [shop, web]) {
      if (!stack) continue;
      stack.close();
      fs.rmSync(stack.programDir, { recursive: true, force: true });
    }
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  test("state move: the VPS, its id the order number, from shop's stack to web's; web's preview shows no change", async () => {
    const up = await shop.up();
    const oid = up.outputs.orderOid as number;
    const mark = mutations().length;
    const moved = await runRecipe(
      "docs/troubleshooting.md#state-move",
      shop.programDir,
      shop.commandEnv(),
      (l) =>
        l
          .replace("--source dev", `--source ${shop.name}`)
          .replace("organization/web/prod", `organization/web/${web.name}`)
          .replace(":dev::", `:${shop.name}::`)
          .replace("--stack prod", `--stack ${web.name}`)
          .replace("--cwd ../web", `--cwd ${web.programDir}`),
    );
    expect(moved).toMatch(/web/);
    expect(await vpssOf(shop)).toEqual([]);
    expect((await vpssOf(web)).map((r) => [r.urn, r.id])).toEqual([
      [`urn:pulumi:${web.name}::web::${NATIVE_VPS_TYPE}::web`, String(oid)],
    ]);
    expect(mutations().slice(mark)).toEqual([]);
    expect(liveOrders(emulator).map((o) => o.orderOid)).toEqual([oid]);
  });

  test("stack migrate: web's stack to another file backend, its secret config readable there, no change", async () => {
    const [oid] = liveOrders(emulator).map((o) => o.orderOid);
    const mark = mutations().length;
    fs.mkdirSync(otherBackend(), { recursive: true });
    await runRecipe("docs/troubleshooting.md#stack-migrate", web.programDir, web.commandEnv(), (l) =>
      l
        .replace("file:///srv/pulumi-state", `file://${otherBackend()}`)
        .replace("file://~", `file://${backend()}`)
        .replace(/ prod\b/, ` ${web.name}`)
        .replace("--stack prod", `--stack ${web.name}`),
    );
    const there = { ...web.commandEnv(), PULUMI_BACKEND_URL: `file://${otherBackend()}` };
    expect((await vpssOf(web, there)).map((r) => r.id)).toEqual([String(oid)]);
    expect(mutations().slice(mark)).toEqual([]);
  });

  test("a lost create: the flag imports nothing (CLI v3.260); the page's clear, import and preview do", async () => {
    fs.writeFileSync(
      path.join(shop.programDir, "Pulumi.yaml"),
      fs
        .readFileSync(path.join(shop.programDir, "Pulumi.yaml"), "utf8")
        .replace(/resources:[\s\S]*$/, vpsProgram("api")),
    );
    const before = emulator.snapshot().length;
    emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 60_000 });
    // runKilled also runs `pulumi cancel` (the page's first line, run again below: it is harmless).
    await runKilled(shop, "up", "the order to be committed", () => emulator.snapshot().length > before);
    emulator.app.emulator.faults.clear();
    const order = emulator.snapshot()[before]!;
    const pending = JSON.parse(await shop.exportState()) as {
      deployment: { pending_operations?: { type: string; resource: { urn: string } }[] };
    };
    expect(pending.deployment.pending_operations?.map((p) => [p.type, p.resource.urn])).toEqual([
      ["creating", `urn:pulumi:${shop.name}::shop::${NATIVE_VPS_TYPE}::api`],
    ]);
    const urn = `urn:pulumi:${shop.name}::shop::${NATIVE_VPS_TYPE}::api`;
    const mark = mutations().length;

    // What the flag does in CLI v3.260: it turns the note into an import note, which the refresh then drops
    // without importing anything (the page says so; this fails once a CLI imports the order).
    await shop.command(
      "refresh",
      "--yes",
      "--import-pending-creates",
      urn,
      "--import-pending-creates",
      String(order.orderOid),
    );
    const afterFlag = JSON.parse(await shop.exportState()) as {
      deployment: { pending_operations?: unknown[] };
    };
    expect(afterFlag.deployment.pending_operations ?? []).toEqual([]);
    expect(await vpssOf(shop)).toEqual([]);

    await runRecipe("docs/troubleshooting.md#lost-create", shop.programDir, shop.commandEnv(), (l) =>
      l.replace("1234567", String(order.orderOid)).replace(/^pulumi (\w+)/, `pulumi $1 --stack ${shop.name}`),
    );
    expect((await vpssOf(shop)).map((r) => [r.urn, r.id])).toEqual([[urn, String(order.orderOid)]]);
    expect(mutations().slice(mark)).toEqual([]);
    expect(liveOrders(emulator)).toHaveLength(2);
  });

  // Issue 92: a stack removed with `pulumi stack rm --force` abandons its VPSs, and the stack made again of its name has
  // another identity. Its `up` refuses the old order; its destroy (no VPS in its state) never starts the provider and
  // says nothing; killed-orders counts the order in one line, exit 0; the page's recipe adopts it (unprotected) and
  // the destroy cancels it.
  test("a removed stack's VPS: the new stack of its name refuses it, tells of it, and the page's recipe ends it", async () => {
    const dir = writeYamlProgram("remade", vpsProgram("api"));
    const stack = await CliStack.create({
      programDir: dir,
      backendDir: backend(),
      config: config(),
      baseEnv: PAGE_ENV,
    });
    try {
      const oid = (await stack.up()).outputs.orderOid as number;
      await stack.command("stack", "rm", "--force", "--yes");
      await stack.command("stack", "init");
      await stack.setConfigs(config());
      await expect(stack.command("up", "--yes", "--skip-preview")).rejects.toThrow(/RIMU_ERR_FOREIGN_ORDER/);
      const destroyed = await stack.command("destroy", "--yes", "--skip-preview");
      expect(destroyed).not.toContain(String(oid));
      const told = await killedOrders(stack, "yaml");
      expect(told.text.split("\n").filter((line) => line.includes("another stack"))).toEqual([
        expect.stringMatching(
          /1 order of stack \S+'s name \(\$[\d.]+ a month\) carries another stack's identity/,
        ),
      ]);
      expect(told.code).toBe(0);
      expect(liveOrders(emulator).map((o) => o.orderOid)).toContain(oid);
      await runRecipe("docs/troubleshooting.md#adopt-old-order", stack.programDir, stack.commandEnv(), (l) =>
        l.replace("1234567", String(oid)).replace(/^pulumi (\w+)/, `pulumi $1 --stack ${stack.name}`),
      );
      expect(liveOrders(emulator).map((o) => o.orderOid)).not.toContain(oid);
      expect(await vpssOf(stack)).toEqual([]);
    } finally {
      stack.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the dynamic Vps: the page's state move, with its URN, carries its provider; no change after", async () => {
    const from = await CliStack.create({
      programDir: dynamicProgram(scratch, "dshop"),
      backendDir: backend(),
      config: config(),
      baseEnv: PAGE_ENV,
    });
    const to = await CliStack.create({
      programDir: dynamicProgram(scratch, "dweb"),
      backendDir: backend(),
      config: config(),
      baseEnv: PAGE_ENV,
    });
    try {
      const oid = (await from.up()).outputs.orderOid as number;
      const mark = mutations().length;
      await runRecipe("docs/troubleshooting.md#state-move", from.programDir, from.commandEnv(), (l) =>
        l
          .replace("--source dev", `--source ${from.name}`)
          .replace("organization/web/prod", `organization/dweb/${to.name}`)
          .replace(`:dev::shop::${NATIVE_VPS_TYPE}::`, `:${from.name}::dshop::${VPS_TYPE}::`)
          .replace("--stack prod", `--stack ${to.name}`)
          .replace("--cwd ../web", `--cwd ${to.programDir}`),
      );
      expect(mutations().slice(mark)).toEqual([]);
      expect(liveOrders(emulator).map((o) => o.orderOid)).toContain(oid);
    } finally {
      from.close();
      to.close();
    }
  });
});
