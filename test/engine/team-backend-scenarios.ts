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
import * as path from "node:path";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { amountUsd } from "../../provider/wire-mapping/values";
import { CliStack } from "./cli-stack";
import { driftReport } from "./drift-check";
import { EXAMPLES_DIR } from "./e2e-support";
import { runKilled } from "./kill-run";
import { killedOrders } from "./killed-orders-run";
import { describeOnBackend, type TeamBackendKind } from "./team-backends";
import { collected, PLUGIN, TeamWorld, vpsOps, yamlVps } from "./team-world";

export function teamBackendScenarios(kind: TeamBackendKind): void {
  describeOnBackend(kind, `the workflows on a ${kind} backend`, () => {
    const w = new TeamWorld(kind);
    /** The YAML project (native plugin) and the dynamic one's stacks, shared by the tests in order. */
    let yaml: CliStack;
    let dynamic: CliStack;
    /** Two stacks of one YAML program of one VPS, for the runs at once under a budget. */
    let teamStacks: CliStack[] = [];

    beforeAll(() => w.start());
    afterAll(() => w.close());

    test("YAML and the dynamic Vps: up, preview and refresh with no change", async () => {
      yaml = await w.stackOn(w.yamlProject("shop", yamlVps("web", "web.shop.example.com")), "shop");
      dynamic = await w.stackOn(path.join(EXAMPLES_DIR, "fleet"), "fleet", { count: "1", stopped: "-1" });
      expect(vpsOps(await yaml.up())).toEqual(["create"]);
      expect(vpsOps(await dynamic.up())).toEqual(["create"]);
      for (const stack of [yaml, dynamic]) {
        expect(vpsOps(await stack.preview())).toEqual(["same"]);
        expect(vpsOps(await stack.refresh())).toEqual(["same"]);
      }
      expect(w.activeOrders()).toHaveLength(2);
      await w.expectEveryOrderHeld();
    });

    test("import-file leaves out both stacks' VPSs, naming each stack; run again, only the new VPS", async () => {
      // Five stacks on the backend, where the CLI's `pulumi stack ls` hangs on PostgreSQL unless read one by one.
      const team = w.yamlProject("team", yamlVps("node", "node.${pulumi.stack}.team.example.com"));
      teamStacks = [await w.stackOn(team, "team-a"), await w.stackOn(team, "team-b")];
      const free = await w.placeByHand("free.example.com");
      const adopted = await w.stackOn(w.yamlProject("adopted", ""), "adopted");
      const importFile = (out: string) =>
        collected(PLUGIN, ["import-file", "--stack", adopted.name, "--out", out], {
          cwd: adopted.programDir,
          env: adopted.commandEnv(),
        });
      const [web, node] = [yaml, dynamic].map(
        (stack) => `in stack organization/${stack === yaml ? "shop" : "fleet"}/${stack.name}`,
      );
      const oids = w.activeOrders().map((o) => o.orderOid);
      const first = await importFile("vpss.json");
      w.seen.push(first.output);
      expect(first.output).toContain(
        "left out 2 VPSs that a Pulumi stack manages: " +
          `node0.fleet.example.com (order ${oids[1]}: ${node}), web.shop.example.com (order ${oids[0]}: ${web}).`,
      );
      expect(first.code).toBe(0);
      const written = fs.readFileSync(path.join(adopted.programDir, "vpss.json"), "utf8");
      w.seen.push(written);
      expect(JSON.parse(written)).toEqual({
        resources: [{ type: "rimuhosting:index:Vps", name: "freeExampleCom", id: String(free) }],
      });
      await w.pulumi(adopted, "import", "--file", "vpss.json", "--yes", "--protect=false", "--skip-preview");
      // The account grows by a VPS whose name would be the one the stack gave free.example.com.
      const grown = await w.placeByHand("free-example.com");
      const again = await importFile("more.json");
      w.seen.push(again.output);
      expect(again.output).toContain("left out 3 VPSs that a Pulumi stack manages");
      expect(again.code).toBe(0);
      expect(JSON.parse(fs.readFileSync(path.join(adopted.programDir, "more.json"), "utf8"))).toEqual({
        resources: [{ type: "rimuhosting:index:Vps", name: "freeDashExampleDotCom", id: String(grown) }],
      });
      await w.client.deleteVps({ orderOid: grown, domainName: "free-example.com" });
      await w.expectEveryOrderHeld();
    });

    test("docs/ci.md's drift check: exit 0 unchanged, 7 after a resize, the report names it", async () => {
      // The step's script as the page writes it (test/docs/drift-workflow.test.ts runs the whole workflow).
      const page = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "ci.md"), "utf8");
      const workflow = page.slice(page.indexOf("<!-- recipe: drift-workflow -->"));
      const step = /- name: Refresh as a preview[\s\S]*?run: \|\n([\s\S]*?)\n\s+- name:/.exec(workflow)![1]!;
      const script = step.replace(/^ {10}/gm, "");
      const output = path.join(w.scratch, "github-output");
      const check = async () => {
        fs.writeFileSync(output, "");
        await new Promise<void>((resolve, reject) => {
          const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
            cwd: yaml.programDir,
            env: { ...yaml.commandEnv(), STACK: yaml.name, GITHUB_OUTPUT: output },
            stdio: ["ignore", "ignore", "pipe"],
          });
          child.stderr.on("data", (chunk: Buffer) => w.seen.push(chunk.toString()));
          child.on("error", reject);
          child.on("close", (code) =>
            code === 0 ? resolve() : reject(new Error(`the step exited ${code}`)),
          );
        });
        const json = fs.readFileSync(path.join(yaml.programDir, "refresh.json"), "utf8");
        w.seen.push(json);
        return {
          exit: /exit=(\d+)/.exec(fs.readFileSync(output, "utf8"))![1],
          report: await driftReport(json),
        };
      };
      expect(await check()).toMatchObject({ exit: "0", report: { code: 0 } });
      const [oid] = await w.heldOrders([yaml]);
      await w.client.changeParameters(oid!, { memory_mb: 2048 });
      const drifted = await check();
      expect(drifted).toMatchObject({ exit: "7", report: { code: 1 } });
      expect(drifted.report.markdown).toContain("| web (web.shop.example.com) | memoryMb | 1024 → 2048 |");
      await w.client.changeParameters(oid!, { memory_mb: 1024 });
    });

    test("a killed `up`, then `pulumi up`: the order taken back, none billed in no state", async () => {
      fs.appendFileSync(path.join(yaml.programDir, "Pulumi.yaml"), yamlVps("web2", "web2.shop.example.com"));
      const killed = await w.killedUp(yaml);
      const count = w.activeOrders().length;
      expect(vpsOps(await yaml.up()).sort()).toEqual(["create", "same"]);
      expect(await w.heldOrders([yaml])).toContain(killed);
      expect(w.activeOrders()).toHaveLength(count);
      await w.expectEveryOrderHeld();
    });

    test("a killed `up`, then `pulumi destroy`: none of the stack's orders left billed", async () => {
      await dynamic.setConfigs({ count: "2" });
      const killed = await w.killedUp(dynamic);
      const events = path.join(w.scratch, "destroy-events.jsonl");
      w.seen.push(
        await dynamic.commandWithEventLog(events, ["destroy", "--yes", "--skip-preview"], (text) =>
          w.seen.push(text),
        ),
      );
      w.seen.push(fs.readFileSync(events, "utf8"));
      expect(w.activeOrders().map((o) => o.orderOid)).not.toContain(killed);
      expect(await w.heldOrders([dynamic])).toEqual([]);
      await w.expectEveryOrderHeld();
    });

    test("two stacks' `up`s at once under a budget of one more VPS: one orders, one is refused", async () => {
      const account = w.activeOrders().reduce((sum, o) => sum + Math.round(o.monthlyFeeUsd * 100), 0);
      const quote = await w.client.quoteNewVm({
        dc_location: "DCDALLAS",
        pricing_plan_code: "MIRO1B",
        vps_parameters: { memory_mb: 1024, disk_space_mb: 20480 },
      });
      const budget = account + Math.round(Number(amountUsd(quote.monthly_recurring_amt)) * 100);
      for (const stack of teamStacks)
        await stack.setConfigs({ "rimuhosting:monthlyBudgetUsd": (budget / 100).toFixed(2) });
      // Each order's answer held 3 s: both runs are past their preview and ordering at once.
      w.emulator.injectFault({ route: "createVps", kind: "delay", delayMs: 3000, times: 2 });
      const settled = await Promise.allSettled(teamStacks.map((stack) => w.pulumi(stack, "up", "--yes")));
      w.emulator.app.emulator.faults.clear();
      const refused = settled.flatMap((run) => (run.status === "rejected" ? [String(run.reason)] : []));
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatch(/\[RIMU_ERR_BUDGET\]/);
      w.seen.push(...refused);
      const cents = w.activeOrders().reduce((sum, o) => sum + Math.round(o.monthlyFeeUsd * 100), 0);
      expect(cents).toBe(budget);
      await w.expectEveryOrderHeld();
    });

    // The rules of ownership across backends (issue 80's stack identity): on PostgreSQL, which keeps no earlier state
    // the provider can read, the kills' pending creates prove a killed run's orders.
    if (kind === "postgres") {
      test("a same-named stack on a file backend, one account: neither's destroy cancels the other's VPS", async () => {
        const twin = w.yamlProject(
          "twin",
          yamlVps("web", "web.twin.example.com", "      dcLocation: ${dc}\n").replace(
            "      dcLocation: DCDALLAS\n",
            "",
          ),
        );
        fs.appendFileSync(path.join(twin, "Pulumi.yaml"), "config:\n  dc:\n    type: string\n");
        // Both named exactly `dev` (one stack token), each in a checkout of its own (its own Pulumi.dev.yaml).
        const colleagues = path.join(w.scratch, "colleague", "twin");
        fs.mkdirSync(colleagues, { recursive: true });
        fs.copyFileSync(path.join(twin, "Pulumi.yaml"), path.join(colleagues, "Pulumi.yaml"));
        const here = await w.stackOn(twin, "dev", { dc: "DCDALLAS" }, { exactName: true });
        const before = w.activeOrders().map((o) => o.orderOid);
        await w.pulumi(here, "up", "--yes", "--skip-preview");
        const [ours] = await w.heldOrders([here]);
        // A colleague's `dev` of the same project on a file backend: its VPS in London (another creation token).
        const there = await w.stackOn(colleagues, "dev", { dc: "DCLONDON" }, { fileBackend: true });
        await w.pulumi(there, "up", "--yes", "--skip-preview");
        const [theirs] = await w.heldOrders([there]);
        expect(
          w
            .activeOrders()
            .map((o) => o.orderOid)
            .filter((oid) => !before.includes(oid))
            .sort(),
        ).toEqual([ours, theirs].sort());
        const destroyed = await w.pulumi(here, "destroy", "--yes", "--skip-preview");
        expect(w.activeOrders().map((o) => o.orderOid)).toContain(theirs);
        expect(w.activeOrders().map((o) => o.orderOid)).not.toContain(ours);
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
        w.seen.push(swept.text);
        expect([...aboutOthers(swept.text)]).toEqual([expect.stringMatching(oneLine)]);
        expect(swept.code).toBe(0);
        // docs/ci.md's cleanup step after a cancelled job: a killed first `up` beside the colleague's live VPS. The
        // step as the page writes it passes: the killed run's order cancelled, the colleague's left, one line of it.
        const killed = await w.killedUp(here);
        const cleanup = await w.cleanupStep(here);
        w.seen.push(cleanup.output);
        expect({ code: cleanup.code, others: [...aboutOthers(cleanup.output)] }).toEqual({
          code: 0,
          others: [expect.stringMatching(oneLine)],
        });
        expect(cleanup.output).toMatch(
          new RegExp(`order ${killed} \\(web\\.twin\\.example\\.com, [^)]*\\): cancelled\\.`),
        );
        expect(w.activeOrders().map((o) => o.orderOid)).not.toContain(killed);
        expect(w.activeOrders().map((o) => o.orderOid)).toContain(theirs);
        await w.pulumi(there, "destroy", "--yes", "--skip-preview");
        expect(w.activeOrders().map((o) => o.orderOid)).not.toContain(theirs);
      });

      test("a 10-VPS `up` killed once 3 orders exist, then `pulumi cancel` and `pulumi destroy`: none billed", async () => {
        const big = w.yamlProject("big", yamlVps("node0", "node0.big.example.com"));
        const stack = await w.stackOn(big, "big");
        await w.pulumi(stack, "up", "--yes", "--skip-preview");
        fs.appendFileSync(
          path.join(big, "Pulumi.yaml"),
          Array.from({ length: 9 }, (_, i) => yamlVps(`node${i + 1}`, `node${i + 1}.big.example.com`)).join(
            "",
          ),
        );
        const before = w.activeOrders().length;
        w.emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: 60_000, times: 9 });
        await runKilled(stack, "up", "3 orders to be committed", () => w.activeOrders().length >= before + 3);
        w.emulator.app.emulator.faults.clear();
        await w.pulumi(stack, "destroy", "--yes", "--skip-preview");
        expect(w.activeOrders().filter((o) => o.domainName.endsWith(".big.example.com"))).toEqual([]);
        await w.expectEveryOrderHeld();
      });
    }

    // The lock of this backend is where killed-orders cannot see it: a killed first `up` (no VPS in its state, so
    // `pulumi destroy` never starts the provider) leaves an order only killed-orders reaches, and it cancels nothing
    // until told that no command of the stack runs.
    test("a killed first `up`, then killed-orders: refused until --no-run-in-progress, then none billed", async () => {
      const stack = await w.stackOn(w.yamlProject("first", yamlVps("web", "web.first.example.com")), "first");
      const killed = await w.killedUp(stack);
      const refused = await killedOrders(stack, "yaml");
      w.seen.push(refused.text);
      expect(refused.text).toContain("[RIMU_ERR_RUN_IN_PROGRESS]");
      expect(refused.text).toContain(`order ${killed} (web.first.example.com,`);
      expect(refused.code).toBe(1);
      expect(w.activeOrders().map((o) => o.orderOid)).toContain(killed);
      const swept = await killedOrders(stack, "yaml", ["--yes", "--no-run-in-progress"]);
      w.seen.push(swept.text);
      expect(swept.text).toMatch(
        new RegExp(`order ${killed} \\(web\\.first\\.example\\.com, [^)]*\\): cancelled\\.`),
      );
      expect(swept.text).toContain("(a pending operation)");
      expect(swept.code).toBe(0);
      expect(w.activeOrders().map((o) => o.orderOid)).not.toContain(killed);
      await w.expectEveryOrderHeld();
    });

    test("the backend's secret is in nothing printed, logged or written", async () => {
      // The messages that name the backend (killed-orders' lock it cannot see) are among those seen above.
      for (const stack of w.stacks) w.seen.push(await stack.exportState());
      for (const file of fs.readdirSync(w.scratch, { recursive: true }) as string[]) {
        const at = path.join(w.scratch, file);
        if (fs.statSync(at).isFile() && !at.includes(`${path.sep}home${path.sep}`))
          w.seen.push(fs.readFileSync(at, "utf8"));
      }
      const carrying = w.seen.filter((text) => text.includes(w.backend.secret));
      expect(
        carrying.map((text) =>
          text.slice(Math.max(0, text.indexOf(w.backend.secret) - 200), text.indexOf(w.backend.secret) + 50),
        ),
      ).toEqual([]);
      expect(w.seen.length).toBeGreaterThan(20);
    });
  });
}
