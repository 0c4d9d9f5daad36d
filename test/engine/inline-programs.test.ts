// TypeScript programs on the engine alone: docs/automation-api.md's `inline.ts` runs a project's own index.ts as an
// inline program of the Automation API, so the program talks to the engine of the real CLI directly, with no Node.js
// language host in between (the one scripts/pulumi-cli.sh builds is from 2023 and refuses hooks: docs/testing.md).
// Two programs run through it against the emulator, each with `node inline.ts up` then `node inline.ts destroy`:
// - docs/installation-configuration.md's onError recipe: the emulator refuses the order twice (past the client's own
//   retries), the hook runs the create again, and the account holds one VPS in the end;
// - docs/resource-options.md's resource hooks: their lines, before and after the create.
// A third program shows why they run inline: through `pulumi preview`, that host refuses both kinds of hook.
// README.md's quickstart runs through `pulumi up` and `pulumi destroy` in test/package/readme.test.ts ("the README's
// first deployment"); a program that only declares resources needs nothing of the engine that route lacks.
//
// Each runs in a user's environment (test/docs/support/user-env.ts): what docs/automation-api.md sets (a file
// backend, its passphrase, the API key and the emulator's address) and the harness's PULUMI_HOME, no update check, no
// plugin download and TMPDIR in the scratch directory. The project holds the packed package, unpacked as npm puts it,
// and @pulumi/pulumi and the package's dependencies at the lockfile's versions (unpackIntoProject): the install as a
// user runs it is test/package/packed.test.ts's.
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { commandLines, recipe } from "../docs/support/code-blocks";
import { shell, shownLinePattern } from "../docs/support/shell";
import { userEnv } from "../docs/support/user-env";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { packFromCheckout, scratchDir, unpackIntoProject } from "../package/support/offline-project";
import { offlineCliEnv } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { liveOrders } from "./e2e-support";

jest.setTimeout(600_000);

const scratch = scratchDir("inline-programs");
const project = path.join(scratch.dir, "project");
let emulator: TestEmulator;

/**
 * A Pulumi project of its own inside the user's project (sharing its node_modules), as `pulumi new typescript` makes
 * one, with `program` as its index.ts and the page's inline.ts beside it.
 */
function projectDir(name: string, program: string): string {
  const dir = path.join(project, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
  );
  // docs/automation-api.md: the script and index.ts are ES modules.
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  fs.writeFileSync(path.join(dir, "index.ts"), program);
  fs.writeFileSync(path.join(dir, "inline.ts"), recipe("docs/automation-api.md#inline"));
  return dir;
}

/**
 * Runs the page's `node inline.ts up` or `destroy` in `dir`, in a user's environment; its output, or the failure.
 * INLINE_PROGRAMS_LOG=<file> keeps every output there, to read the hooks' lines and the engine's warnings.
 */
async function inline(dir: string, command: "up" | "destroy"): Promise<string> {
  const output = await inlineRun(dir, command);
  if (process.env.INLINE_PROGRAMS_LOG)
    fs.appendFileSync(process.env.INLINE_PROGRAMS_LOG, `== ${dir} ${command}\n${output}`);
  return output;
}

/** `up` in `dir`, then `check` of its output, then `destroy` whatever check found: the next test starts clean. */
async function upThenDestroy(dir: string, check: (up: string) => void | Promise<void>): Promise<void> {
  try {
    await check(await inline(dir, "up"));
  } finally {
    await inline(dir, "destroy");
  }
}

/** What docs/automation-api.md sets (the scratch backend, the emulator's address), and the harness's settings. */
function pageEnv(): Record<string, string> {
  const backend = path.join(scratch.dir, "backend");
  fs.mkdirSync(backend, { recursive: true });
  const { PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, ...harness } = offlineCliEnv(backend);
  return userEnv(
    "docs/automation-api.md",
    {
      PULUMI_BACKEND_URL: PULUMI_BACKEND_URL!,
      PULUMI_CONFIG_PASSPHRASE: PULUMI_CONFIG_PASSPHRASE!,
      RIMUHOSTING_APIKEY: DEMO_API_KEY,
      RIMUHOSTING_BASEURL: emulator.baseUrl,
    },
    { ...harness, TMPDIR: path.join(scratch.dir, "tmp") },
  );
}

/** inline() without the log. */
async function inlineRun(dir: string, command: "up" | "destroy"): Promise<string> {
  const line = commandLines(recipe("docs/automation-api.md#inline-run")).find((l) =>
    l.endsWith(` ${command}`),
  );
  if (!line) throw new Error(`docs/automation-api.md#inline-run has no \`node inline.ts ${command}\``);
  const result = await shell(line, { cwd: dir, env: pageEnv(), clean: true });
  if (result.code !== 0) throw new Error(`\`${line}\` exited with ${result.code}:\n${result.output}`);
  return result.output;
}

const createRequests = () => emulator.requestLog().filter((e) => e.route === "createVps");

describeCliOnly(
  "inline programs (docs/automation-api.md#inline): on the engine, no language host between",
  () => {
    beforeAll(async () => {
      const packed = packFromCheckout(scratch.dir);
      fs.mkdirSync(project);
      fs.mkdirSync(path.join(scratch.dir, "tmp"));
      unpackIntoProject(project, packed);
    }, 900_000);
    afterAll(() => scratch.cleanup());
    // An emulator per test: a fault one test armed and did not use cannot reach the next.
    beforeEach(async () => {
      emulator = await startTestEmulator();
    });
    afterEach(async () => {
      try {
        expect(liveOrders(emulator)).toEqual([]);
      } finally {
        await emulator.close();
      }
    });

    test("docs/installation-configuration.md's onError: two refused creates run again, one VPS in the end", async () => {
      const dir = projectDir("on-error", recipe("docs/installation-configuration.md#on-error"));
      // The service's own 503 is sent again by the client (retryLimit 3: four sends), then the create fails with
      // RIMU_ERR_TRANSIENT; twice, so the third create, the hook's second retry, is the one that goes through.
      emulator.injectFault({ route: "createVps", kind: "status", status: 503, times: 8 });
      const before = createRequests().length;
      await upThenDestroy(dir, (up) => {
        const sent = createRequests().slice(before);
        expect(sent.map((e) => e.status)).toEqual([...Array<number>(8).fill(503), 200]);
        expect(liveOrders(emulator)).toHaveLength(1);
        // The engine's word for each run again (the progress display repeats it; the diagnostics list each once).
        const retries = new Set(up.match(/retrying create due to on-error hook request \(\d+\/\d+\)/g));
        expect([...retries].sort()).toEqual([
          "retrying create due to on-error hook request (1/100)",
          "retrying create due to on-error hook request (2/100)",
        ]);
      });
    });

    test("docs/resource-options.md's resource hooks print their lines around the create", async () => {
      const dir = projectDir("hooks", recipe("docs/resource-options.md#hooks"));
      const shown = recipe("docs/resource-options.md#hooks-output").trim().split("\n");
      expect(shown).toHaveLength(2);
      await upThenDestroy(dir, (up) => {
        const [order, ...more] = liveOrders(emulator);
        expect(more).toEqual([]);
        // Matched anywhere in a line: the engine's output comes in chunks that need not end a line.
        const lines = up.match(/(before|after)Create: [^\n]*/g) ?? [];
        expect(lines).toHaveLength(2);
        lines.forEach((l, i) => expect(l).toMatch(shownLinePattern(shown[i]!)));
        expect(lines[1]).toBe(`afterCreate: web (web.shop.example.com), order ${order!.orderOid}`);
      });
    });

    // Why the two programs above run inline (docs/testing.md): through `pulumi preview` a program reaches the engine
    // through the Node.js language host scripts/pulumi-cli.sh builds, from 2023, whose proxy of the resource monitor
    // refuses the calls added since, although the CLI's engine has them. When the host is newer, this fails, and the
    // pages that say so change with it.
    test("through `pulumi preview`, the 2023 language host refuses both kinds of hook: 12 UNIMPLEMENTED", async () => {
      const dir = path.join(project, "through-host");
      fs.mkdirSync(dir);
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        "name: through-host\nruntime: nodejs\nmain: index.js\n",
      );
      fs.writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "through-host", private: true }),
      );
      fs.writeFileSync(
        path.join(dir, "index.js"),
        'const pulumi = require("@pulumi/pulumi");\n' +
          'new pulumi.ResourceHook("before", async () => undefined);\n' +
          'new pulumi.ErrorHook("retry", async () => false);\n',
      );
      const { code, output } = await shell("pulumi stack init dev && pulumi preview", {
        cwd: dir,
        env: pageEnv(),
        clean: true,
      });
      expect(code).not.toBe(0);
      for (const method of ["RegisterResourceHook", "RegisterErrorHook"])
        expect(output).toContain(
          `12 UNIMPLEMENTED: unknown method ${method} for service pulumirpc.ResourceMonitor`,
        );
    });
  },
);
