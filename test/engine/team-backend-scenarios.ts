// The workflows of docs/ci.md and docs/native-plugin.md through the real CLI logged in to a team's backend
// (backends-postgres.test.ts, backends-s3.test.ts: one backend and one emulator per file, few VPSs, issue 83). On a
// YAML program (the native plugin) and on the dynamic `Vps` (examples/fleet):
// - up, a preview and a refresh with no change, destroy leaving nothing billed;
// - `import-file` of an account where two stacks of the backend hold VPSs: both left out, each named with its stack;
//   then `pulumi import --file`, and run again on the grown account: only the new VPS, under a name the stack has
//   not (adoption in batches);
// - the drift workflow's refresh step as docs/ci.md writes it: exit 0 unchanged, 7 after a resize, and the report;
// - a killed `up` followed by `pulumi up` (the order taken back), and one followed by `pulumi destroy`: no order
//   billed that no state holds, after either; while the killed run waits for its order, the lock refuses an `up`;
// - two stacks' `up`s at once under a budget of one more VPS: one orders, the other is refused;
// - a killed first `up` (no VPS in its state), then `killed-orders`: it cannot see this backend's lock, so it refuses
//   (RIMU_ERR_RUN_IN_PROGRESS) and cancels nothing; with `--no-run-in-progress --yes` it cancels the killed run's
//   order by its pending create: none billed in no state;
// - on PostgreSQL: a same-named stack on a file backend, one account, whose VPS the other's `destroy` leaves billed;
//   a 10-VPS `up` killed once 3 orders exist, then `pulumi cancel` and `pulumi destroy`: none billed; beside the
//   colleague's live VPS, this stack's destroy and killed-orders count it in one line, killed-orders exits 0, and
//   docs/ci.md's cleanup step after a killed first `up` passes, the killed run's order cancelled;
// - the backend's secret (PostgreSQL's password, S3's secret key) in nothing the CLI printed, the event logs, the
//   states or the files written.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { createClient, type RimuClient } from "../../provider/client/index";
import { amountUsd } from "../../provider/wire-mapping/values";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { driftReport } from "./drift-check";
import { EXAMPLES_DIR, VPS_TYPE } from "./e2e-support";
import { NATIVE_VPS_TYPE, PLUGIN_VERSION, pluginEntry, pulumiFailure, pulumiText } from "./native-programs";
import { runKilled } from "./engine-kill";
import { killedOrders } from "./killed-orders-run";
import type { OperationResult } from "./steps";
import { describeOnBackend, newTeamBackend, type TeamBackend, type TeamBackendKind } from "./team-backends";
import { parse } from "yaml";

const PLUGIN = path.join(__dirname, "..", "..", "bin", "pulumi-resource-rimuhosting");

/** A YAML VPS as every program here declares it (Dallas, MIRO1B, 1 GB, 20 GB). */
const yamlVps = (name: string, domainName: string, extra = "") =>
  `  ${name}:\n    type: rimuhosting:index:Vps\n    properties:\n      domainName: ${domainName}\n` +
  `      dcLocation: DCDALLAS\n      pricingPlanCode: MIRO1B\n      distro: deb12.64\n      memoryMb: 1024\n` +
  `      diskSpaceMb: 20480\n${extra}`;

/** The op of each VPS step of an operation, on either front end. */
const vpsOps = (result: OperationResult): string[] =>
  result.steps.filter((step) => [VPS_TYPE, NATIVE_VPS_TYPE].includes(step.type)).map((step) => step.op);

export function teamBackendScenarios(kind: TeamBackendKind): void {
  describeOnBackend(kind, `the workflows on a ${kind} backend`, () => {
    let emulator: TestEmulator;
    let client: RimuClient;
    let backend: TeamBackend;
    let scratch: string;
    /** Everything printed or written that the backend's secret must not be in. */
    const seen: string[] = [];
    const stacks: CliStack[] = [];
    /** The YAML project (native plugin) and the dynamic one's stacks, shared by the tests in order. */
    let yaml: CliStack;
    let dynamic: CliStack;
    /** Two stacks of one YAML program of one VPS, for the runs at once under a budget. */
    let teamStacks: CliStack[] = [];

    beforeAll(async () => {
      emulator = await startTestEmulator({ timeScale: 0 });
      client = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
      backend = await newTeamBackend(kind, kind);
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), `backends-${kind}-`));
    });
    afterAll(async () => {
      for (const stack of stacks) stack.close();
      client?.close();
      await emulator?.close();
      if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
    });

    /** A YAML project `name` in the scratch directory, its program `resources`. */
    function yamlProject(name: string, resources: string): string {
      const dir = path.join(scratch, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, "Pulumi.yaml"),
        `name: ${name}\nruntime: yaml\n${pluginEntry(PLUGIN_VERSION)}resources:${resources ? `\n${resources}` : " {}\n"}`,
      );
      return dir;
    }

    /** A stack of the program in `programDir` on the team's backend, with the demo account's key. */
    async function stackOn(
      programDir: string,
      stackName: string,
      config: Record<string, string> = {},
      other?: { fileBackend?: true; exactName?: true },
    ) {
      const fileBackend = other?.fileBackend === true;
      const stack = await CliStack.create({
        programDir,
        stackName,
        exactName: other !== undefined,
        backendDir: path.join(scratch, fileBackend ? "file-backend" : "home", stackName),
        backendUrl: fileBackend ? undefined : backend.url,
        env: { ...backend.env, [ENV_VARS.apiKey]: DEMO_API_KEY },
        config: { "rimuhosting:baseUrl": emulator.baseUrl, ...config },
        onOutput: (text) => seen.push(text),
      });
      stacks.push(stack);
      return stack;
    }

    /** `pulumi <args>` on `stack`, its display kept for the secret's check. */
    async function pulumi(stack: CliStack, ...args: string[]): Promise<string> {
      const text = await pulumiText(stack, ...args);
      seen.push(text);
      return text;
    }

    const activeOrders = () => emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled);

    /** Every order number a VPS of the stacks' states holds (pulumi stack export of each). */
    async function heldOrders(of: readonly CliStack[] = stacks): Promise<number[]> {
      const held: number[] = [];
      for (const stack of of) {
        const state = await stack.exportState();
        seen.push(state);
        const resources =
          (JSON.parse(state) as { deployment?: { resources?: { outputs?: { orderOid?: unknown } }[] } })
            .deployment?.resources ?? [];
        for (const r of resources) if (typeof r.outputs?.orderOid === "number") held.push(r.outputs.orderOid);
      }
      return held.sort((a, b) => a - b);
    }

    /** No active order that no state holds, and none held twice. */
    async function expectEveryOrderHeld(): Promise<void> {
      const active = activeOrders()
        .map((o) => o.orderOid)
        .sort((a, b) => a - b);
      expect(await heldOrders()).toEqual(active);
    }

    async function placeByHand(domainName: string): Promise<number> {
      const placed = await client.createVps({
        instantiation_options: { domain_name: domainName, distro: "deb12.64" },
        dc_location: "DCDALLAS",
      });
      return placed.about_order.order_oid;
    }

    test("YAML and the dynamic Vps: up, preview and refresh with no change", async () => {
      yaml = await stackOn(yamlProject("shop", yamlVps("web", "web.shop.example.com")), "shop");
      dynamic = await stackOn(path.join(EXAMPLES_DIR, "fleet"), "fleet", { count: "1", stopped: "-1" });
      expect(vpsOps(await yaml.up())).toEqual(["create"]);
      expect(vpsOps(await dynamic.up())).toEqual(["create"]);
      for (const stack of [yaml, dynamic]) {
        expect(vpsOps(await stack.preview())).toEqual(["same"]);
        expect(vpsOps(await stack.refresh())).toEqual(["same"]);
      }
      expect(activeOrders()).toHaveLength(2);
      await expectEveryOrderHeld();
    });

    test("import-file leaves out both stacks' VPSs, naming each stack; run again, only the new VPS", async () => {
      // Five stacks on the backend, where the CLI's `pulumi stack ls` hangs on PostgreSQL unless read one by one.
      const team = yamlProject("team", yamlVps("node", "node.${pulumi.stack}.team.example.com"));
      teamStacks = [await stackOn(team, "team-a"), await stackOn(team, "team-b")];
      const free = await placeByHand("free.example.com");
      const adopted = await stackOn(yamlProject("adopted", ""), "adopted");
      const importFile = (out: string) =>
        new Promise<{ code: number | null; output: string }>((resolve, reject) => {
          const child = spawn(PLUGIN, ["import-file", "--stack", adopted.name, "--out", out], {
            cwd: adopted.programDir,
            env: adopted.commandEnv(),
            stdio: ["ignore", "pipe", "pipe"],
          });
          let output = "";
          child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
          child.on("error", reject);
          child.on("close", (code) => resolve({ code, output }));
        });
      const [web, node] = [yaml, dynamic].map(
        (stack) => `in stack organization/${stack === yaml ? "shop" : "fleet"}/${stack.name}`,
      );
      const oids = activeOrders().map((o) => o.orderOid);
      const first = await importFile("vpss.json");
      seen.push(first.output);
      expect(first.output).toContain(
        "left out 2 VPSs that a Pulumi stack manages: " +
          `node0.fleet.example.com (order ${oids[1]}: ${node}), web.shop.example.com (order ${oids[0]}: ${web}).`,
      );
      expect(first.code).toBe(0);
      const written = fs.readFileSync(path.join(adopted.programDir, "vpss.json"), "utf8");
      seen.push(written);
      expect(JSON.parse(written)).toEqual({
        resources: [{ type: "rimuhosting:index:Vps", name: "freeExampleCom", id: String(free) }],
      });
      await pulumi(adopted, "import", "--file", "vpss.json", "--yes", "--protect=false", "--skip-preview");
      // The account grows by a VPS whose name would be the one the stack gave free.example.com.
      const grown = await placeByHand("free-example.com");
      const again = await importFile("more.json");
      seen.push(again.output);
      expect(again.output).toContain("left out 3 VPSs that a Pulumi stack manages");
      expect(again.code).toBe(0);
      expect(JSON.parse(fs.readFileSync(path.join(adopted.programDir, "more.json"), "utf8"))).toEqual({
        resources: [{ type: "rimuhosting:index:Vps", name: "freeDashExampleDotCom", id: String(grown) }],
      });
      await client.deleteVps({ orderOid: grown, domainName: "free-example.com" });
      await expectEveryOrderHeld();
    });

    test("docs/ci.md's drift check: exit 0 unchanged, 7 after a resize, the report names it", async () => {
      // The step's script as the page writes it (test/docs/drift-workflow.test.ts runs the whole workflow).
      const page = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "ci.md"), "utf8");
      const workflow = page.slice(page.indexOf("<!-- recipe: drift-workflow -->"));
      const step = /- name: Refresh as a preview[\s\S]*?run: \|\n([\s\S]*?)\n\s+- name:/.exec(workflow)![1]!;
      const script = step.replace(/^ {10}/gm, "");
      const output = path.join(scratch, "github-output");
      const check = async () => {
        fs.writeFileSync(output, "");
        await new Promise<void>((resolve, reject) => {
          const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
            cwd: yaml.programDir,
            env: { ...yaml.commandEnv(), STACK: yaml.name, GITHUB_OUTPUT: output },
            stdio: ["ignore", "ignore", "pipe"],
          });
          child.stderr.on("data", (chunk: Buffer) => seen.push(chunk.toString()));
          child.on("error", reject);
          child.on("close", (code) =>
            code === 0 ? resolve() : reject(new Error(`the step exited ${code}`)),
          );
        });
        const json = fs.readFileSync(path.join(yaml.programDir, "refresh.json"), "utf8");
        seen.push(json);
        return {
          exit: /exit=(\d+)/.exec(fs.readFileSync(output, "utf8"))![1],
          report: await driftReport(json),
        };
      };
      expect(await check()).toMatchObject({ exit: "0", report: { code: 0 } });
      const [oid] = await heldOrders([yaml]);
      await client.changeParameters(oid!, { memory_mb: 2048 });
      const drifted = await check();
      expect(drifted).toMatchObject({ exit: "7", report: { code: 1 } });
      expect(drifted.report.markdown).toContain("| web (web.shop.example.com) | memoryMb | 1024 → 2048 |");
      await client.changeParameters(oid!, { memory_mb: 1024 });
    });

    /**
     * docs/ci.md's cleanup step (the `up` job's step that runs after a failed or cancelled `up`), its script run as the
     * runner runs it (bash -e) in `stack`'s directory and environment, STACK its name, `npx` the checkout's commands.
     */
    async function cleanupStep(stack: CliStack): Promise<{ code: number | null; output: string }> {
      const page = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "ci.md"), "utf8");
      const block = /<!-- recipe: workflow -->\s*```yaml\n([\s\S]*?)```/.exec(page)![1]!;
      const steps = (parse(block) as { jobs: { up: { steps: { name?: string; run?: string }[] } } }).jobs.up
        .steps;
      const script = steps.find((step) => step.name?.startsWith("Cancel the orders"))!.run!;
      // `npx rimuhosting-killed-orders` as the project with the package installed runs it: the checkout's build.
      const bin = path.join(scratch, "npx-bin");
      fs.mkdirSync(bin, { recursive: true });
      const command = path.join(__dirname, "..", "..", "dist", "provider", "adopt", "killed-orders.js");
      fs.writeFileSync(
        path.join(bin, "npx"),
        `#!/bin/sh\n[ "$1" = rimuhosting-killed-orders ] || { echo "npx stand-in: $1" >&2; exit 1; }\n` +
          `shift; exec "${process.execPath}" "${command}" "$@"\n`,
        { mode: 0o755 },
      );
      const env: NodeJS.ProcessEnv = { ...stack.commandEnv(), STACK: stack.name };
      env.PATH = `${bin}${path.delimiter}${env.PATH ?? ""}`;
      return new Promise((resolve, reject) => {
        const child = spawn("bash", ["--noprofile", "--norc", "-e", "-c", script], {
          cwd: stack.programDir,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code, output }));
      });
    }

    /** `pulumi up` of `stack` SIGKILLed once its new order is committed (the answer held back), then `pulumi cancel`. */
    async function killedUp(stack: CliStack): Promise<number> {
      const before = activeOrders().length;
      emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 60_000 });
      let locked = "";
      await runKilled(stack, "up", "the order to be committed", async () => {
        if (activeOrders().length === before) return false;
        // The run waits for its order's answer: the backend's lock refuses a second `up` of the stack meanwhile.
        locked = await pulumiFailure(stack, "up", "--yes", "--skip-preview");
        return true;
      });
      expect(locked).toMatch(/currently locked/);
      emulator.app.emulator.faults.clear();
      const killed = activeOrders().at(-1)!.orderOid;
      expect(await heldOrders()).not.toContain(killed);
      return killed;
    }

    test("a killed `up`, then `pulumi up`: the order taken back, none billed in no state", async () => {
      fs.appendFileSync(path.join(yaml.programDir, "Pulumi.yaml"), yamlVps("web2", "web2.shop.example.com"));
      const killed = await killedUp(yaml);
      const count = activeOrders().length;
      expect(vpsOps(await yaml.up()).sort()).toEqual(["create", "same"]);
      expect(await heldOrders([yaml])).toContain(killed);
      expect(activeOrders()).toHaveLength(count);
      await expectEveryOrderHeld();
    });

    test("a killed `up`, then `pulumi destroy`: none of the stack's orders left billed", async () => {
      await dynamic.setConfigs({ count: "2" });
      const killed = await killedUp(dynamic);
      const events = path.join(scratch, "destroy-events.jsonl");
      seen.push(
        await dynamic.commandWithEventLog(events, ["destroy", "--yes", "--skip-preview"], (text) =>
          seen.push(text),
        ),
      );
      seen.push(fs.readFileSync(events, "utf8"));
      expect(activeOrders().map((o) => o.orderOid)).not.toContain(killed);
      expect(await heldOrders([dynamic])).toEqual([]);
      await expectEveryOrderHeld();
    });

    test("two stacks' `up`s at once under a budget of one more VPS: one orders, one is refused", async () => {
      const account = activeOrders().reduce((sum, o) => sum + Math.round(o.monthlyFeeUsd * 100), 0);
      const quote = await client.quoteNewVm({
        dc_location: "DCDALLAS",
        pricing_plan_code: "MIRO1B",
        vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
      });
      const budget = account + Math.round(Number(amountUsd(quote.monthly_recurring_amt)) * 100);
      for (const stack of teamStacks)
        await stack.setConfigs({ "rimuhosting:monthlyBudgetUsd": (budget / 100).toFixed(2) });
      // Each order's answer held 3 s: both runs are past their preview and ordering at once.
      emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 3000, times: 2 });
      const settled = await Promise.allSettled(teamStacks.map((stack) => pulumi(stack, "up", "--yes")));
      emulator.app.emulator.faults.clear();
      const refused = settled.flatMap((run) => (run.status === "rejected" ? [String(run.reason)] : []));
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatch(/\[RIMU_ERR_BUDGET\]/);
      seen.push(...refused);
      const cents = activeOrders().reduce((sum, o) => sum + Math.round(o.monthlyFeeUsd * 100), 0);
      expect(cents).toBe(budget);
      await expectEveryOrderHeld();
    });

    // The rules of ownership across backends (issue 80's stack identity): on PostgreSQL, which keeps no earlier state
    // the provider can read, the kills' pending creates prove a killed run's orders.
    if (kind === "postgres") {
      test("a same-named stack on a file backend, one account: neither's destroy cancels the other's VPS", async () => {
        const twin = yamlProject(
          "twin",
          yamlVps("web", "web.twin.example.com", "      dcLocation: ${dc}\n").replace(
            "      dcLocation: DCDALLAS\n",
            "",
          ),
        );
        fs.appendFileSync(path.join(twin, "Pulumi.yaml"), "config:\n  dc:\n    type: string\n");
        // Both named exactly `dev` (one stack token), each in a checkout of its own (its own Pulumi.dev.yaml).
        const colleagues = path.join(scratch, "colleague", "twin");
        fs.mkdirSync(colleagues, { recursive: true });
        fs.copyFileSync(path.join(twin, "Pulumi.yaml"), path.join(colleagues, "Pulumi.yaml"));
        const here = await stackOn(twin, "dev", { dc: "DCDALLAS" }, { exactName: true });
        const before = activeOrders().map((o) => o.orderOid);
        await pulumi(here, "up", "--yes", "--skip-preview");
        const [ours] = await heldOrders([here]);
        // A colleague's `dev` of the same project on a file backend: its VPS in London (another creation token).
        const there = await stackOn(colleagues, "dev", { dc: "DCLONDON" }, { fileBackend: true });
        await pulumi(there, "up", "--yes", "--skip-preview");
        const [theirs] = await heldOrders([there]);
        expect(
          activeOrders()
            .map((o) => o.orderOid)
            .filter((oid) => !before.includes(oid))
            .sort(),
        ).toEqual([ours, theirs].sort());
        const destroyed = await pulumi(here, "destroy", "--yes", "--skip-preview");
        expect(activeOrders().map((o) => o.orderOid)).toContain(theirs);
        expect(activeOrders().map((o) => o.orderOid)).not.toContain(ours);
        // The colleague's live VPS is not this stack's business (issue 92): one line counts it, in the destroy and in
        // killed-orders, which exits 0 where it cannot see the lock, without --no-run-in-progress.
        const aboutOthers = (text: string) =>
          new Set(
            text
              .split("\n")
              .filter((line) => line.includes("another stack"))
              // The engine's display shows a provider's line twice (beside the step, under "Diagnostics").
              .map((line) => line.replace(/^.*\[rimuhosting\] /, "").trim()),
          );
        const oneLine = /1 order of stack dev's name \(\$[\d.]+ a month\) carries another stack's identity/;
        expect(aboutOthers(destroyed)).toEqual(new Set([expect.stringMatching(oneLine)]));
        const swept = await killedOrders(here, "yaml");
        seen.push(swept.text);
        expect([...aboutOthers(swept.text)]).toEqual([expect.stringMatching(oneLine)]);
        expect(swept.code).toBe(0);
        // docs/ci.md's cleanup step after a cancelled job: a killed first `up` beside the colleague's live VPS. The
        // step as the page writes it passes: the killed run's order cancelled, the colleague's left, one line of it.
        const killed = await killedUp(here);
        const cleanup = await cleanupStep(here);
        seen.push(cleanup.output);
        expect({ code: cleanup.code, others: [...aboutOthers(cleanup.output)] }).toEqual({
          code: 0,
          others: [expect.stringMatching(oneLine)],
        });
        expect(cleanup.output).toMatch(
          new RegExp(`order ${killed} \\(web\\.twin\\.example\\.com, [^)]*\\): cancelled\\.`),
        );
        expect(activeOrders().map((o) => o.orderOid)).not.toContain(killed);
        expect(activeOrders().map((o) => o.orderOid)).toContain(theirs);
        await pulumi(there, "destroy", "--yes", "--skip-preview");
        expect(activeOrders().map((o) => o.orderOid)).not.toContain(theirs);
      });

      test("a 10-VPS `up` killed once 3 orders exist, then `pulumi cancel` and `pulumi destroy`: none billed", async () => {
        const big = yamlProject("big", yamlVps("node0", "node0.big.example.com"));
        const stack = await stackOn(big, "big");
        await pulumi(stack, "up", "--yes", "--skip-preview");
        fs.appendFileSync(
          path.join(big, "Pulumi.yaml"),
          Array.from({ length: 9 }, (_, i) => yamlVps(`node${i + 1}`, `node${i + 1}.big.example.com`)).join(
            "",
          ),
        );
        const before = activeOrders().length;
        emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 60_000, times: 9 });
        await runKilled(stack, "up", "3 orders to be committed", () => activeOrders().length >= before + 3);
        emulator.app.emulator.faults.clear();
        await pulumi(stack, "destroy", "--yes", "--skip-preview");
        expect(activeOrders().filter((o) => o.domainName.endsWith(".big.example.com"))).toEqual([]);
        await expectEveryOrderHeld();
      });
    }

    // The lock of this backend is where killed-orders cannot see it: a killed first `up` (no VPS in its state, so
    // `pulumi destroy` never starts the provider) leaves an order only killed-orders reaches, and it cancels nothing
    // until told that no command of the stack runs.
    test("a killed first `up`, then killed-orders: refused until --no-run-in-progress, then none billed", async () => {
      const stack = await stackOn(yamlProject("first", yamlVps("web", "web.first.example.com")), "first");
      const killed = await killedUp(stack);
      const refused = await killedOrders(stack, "yaml");
      seen.push(refused.text);
      expect(refused.text).toContain("[RIMU_ERR_RUN_IN_PROGRESS]");
      expect(refused.text).toContain(`order ${killed} (web.first.example.com,`);
      expect(refused.code).toBe(1);
      expect(activeOrders().map((o) => o.orderOid)).toContain(killed);
      const swept = await killedOrders(stack, "yaml", ["--yes", "--no-run-in-progress"]);
      seen.push(swept.text);
      expect(swept.text).toMatch(
        new RegExp(`order ${killed} \\(web\\.first\\.example\\.com, [^)]*\\): cancelled\\.`),
      );
      expect(swept.text).toContain("(a pending operation)");
      expect(swept.code).toBe(0);
      expect(activeOrders().map((o) => o.orderOid)).not.toContain(killed);
      await expectEveryOrderHeld();
    });

    test("the backend's secret is in nothing printed, logged or written", async () => {
      // The messages that name the backend (killed-orders' lock it cannot see) are among those seen above.
      for (const stack of stacks) seen.push(await stack.exportState());
      for (const file of fs.readdirSync(scratch, { recursive: true }) as string[]) {
        const at = path.join(scratch, file);
        if (fs.statSync(at).isFile() && !at.includes(`${path.sep}home${path.sep}`))
          seen.push(fs.readFileSync(at, "utf8"));
      }
      const carrying = seen.filter((text) => text.includes(backend.secret));
      expect(
        carrying.map((text) =>
          text.slice(Math.max(0, text.indexOf(backend.secret) - 200), text.indexOf(backend.secret) + 50),
        ),
      ).toEqual([]);
      expect(seen.length).toBeGreaterThan(20);
    });
  });
}
