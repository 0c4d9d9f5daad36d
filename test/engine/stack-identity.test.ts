// A stack identity no other stack can carry (issue 80 case 1; provider/impl/ownership/stack-identity.ts), through the
// real CLI on both front ends: colleagues A and B, one account, a file backend each, the same project and a stack
// named `dev` in each (one program directory, so one Pulumi.dev.yaml: only the backend tells them apart). A's `up`
// orders its VPS; B's `up` of the same resource fails with RIMU_ERR_FOREIGN_ORDER naming A's order and takes nothing
// (it used to take A's order over: the stack token hashed the names only); B's VPS in another data centre is ordered;
// A's `destroy` cancels A's VPS and leaves B's billed and in B's state (it used to cancel it as "a killed run of this
// stack"); three rounds of A's `up` and `destroy`, then `killed-orders --yes`, each exit 0 and count B's order in one
// line (issue 92: another stack's orders are not A's business); B's `killed-orders --identity` prints the mark that
// order carries, and A's, given it with --other-stack-mark, still exits 0. B's destroy while RimuHosting lists no orders cannot judge what a killed run may have left: it exits
// non-zero and B's VPS stays billed and in B's state (the state never holds a cancelled VPS); the next destroy
// cancels it. Each step is one `pulumi` command.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { ENV_VARS } from "../../provider/config";
import { EXAMPLES_DIR, type Scenario } from "./e2e-support";
import {
  PLUGIN_VERSION,
  describeNative,
  pulumiFailure,
  pulumiText,
  startNativeScenario,
  writeYamlProgram,
} from "./native-programs";
import { createStackDriver, type StackDriver } from "./stack-driver";
import { execFileSync } from "node:child_process";
import { offlineCliEnv } from "./cli-stack";
import { describeCliOnly } from "./describe-cli";
import { readStackIdentity, STACK_TAG } from "../../provider/impl/ownership/stack-identity";
import { killedOrders } from "./killed-orders-run";

jest.setTimeout(600_000);

/** One VPS whose data centre is the stack's config `dc`. */
const YAML_PROGRAM = `config:
  dc:
    type: string
resources:
  web:
    type: rimuhosting:index:Vps
    properties:
      domainName: web.identity.example.com
      dcLocation: \${dc}
      pricingPlanCode: MIRO1B
      distro: deb12.64
      memoryMb: 1024
      diskSpaceMb: 20480
`;

/** The demo account's active orders, from the emulator's own records. */
const activeOrders = (s: Scenario) =>
  s.emulator
    .snapshot()
    .filter((o) => o.account === "demo" && !o.cancelled)
    .map((o) => o.orderOid);

/** The order numbers a stack's state holds (`pulumi stack export`). */
async function heldBy(stack: StackDriver): Promise<number[]> {
  const state = JSON.parse(await stack.exportState()) as {
    deployment?: { resources?: { outputs?: { orderOid?: unknown } }[] };
  };
  return (state.deployment?.resources ?? []).flatMap((r) =>
    typeof r.outputs?.orderOid === "number" ? [r.outputs.orderOid] : [],
  );
}

describeNative("yaml", "two backends, one account, a stack `dev` in each", () => {
  let s: Scenario;
  let yamlDir = "";
  beforeAll(async () => {
    yamlDir = writeYamlProgram("identity", YAML_PROGRAM, { version: PLUGIN_VERSION });
    s = await startNativeScenario(yamlDir);
  });
  afterAll(async () => s?.close());

  test.each(["yaml", "dynamic"] as const)(
    "%s: B's up does not take A's order; A's destroy leaves B's VPS billed and in B's state",
    async (front) => {
      const programDir = front === "yaml" ? yamlDir : path.join(EXAMPLES_DIR, "fleet");
      const dcKey = front === "yaml" ? "dc" : "dcLocations";
      const base = fs.mkdtempSync(path.join(os.tmpdir(), `identity-${front}-`));
      const colleague = (who: string) =>
        createStackDriver({
          programDir,
          stackName: "dev",
          exactName: true,
          workDir: path.join(base, who),
          env: { [ENV_VARS.apiKey]: DEMO_API_KEY },
          config: {
            "rimuhosting:baseUrl": s.emulator.baseUrl,
            [dcKey]: "DCDALLAS",
            ...(front === "dynamic" ? { count: "1", stopped: "-1" } : {}),
          },
        });
      const before = activeOrders(s);
      const a = await colleague("a");
      const b = await colleague("b");
      try {
        await pulumiText(a.cli, "up", "--yes", "--skip-preview");
        const [oidA] = activeOrders(s).filter((oid) => !before.includes(oid));
        expect(await heldBy(a)).toEqual([oidA]);
        // The identity's own part: the tag the provider set during the up, kept by it (stack-identity.ts).
        expect(await pulumiText(a.cli, "stack", "tag", "ls", "--json")).toMatch(
          /"rimuhosting:instance": "[0-9a-f]{32}"/,
        );

        // B's program is A's: the same resource, the same creation token. A's order is not B's to take. B's checks
        // (its preview's, its up's) judge A's order by B's identity, and leave B without a tag: B has marked no
        // order, and only a read to mark sets it (stack-identity.ts, "Who sets the tag").
        for (const command of [["preview"], ["up", "--yes", "--skip-preview"]]) {
          const refused = await pulumiFailure(b.cli, ...command);
          expect(refused).toContain("RIMU_ERR_FOREIGN_ORDER");
          expect(refused).toContain(`order ${oidA}`);
          expect(refused).toContain("it carries another stack's identity");
          expect(await pulumiText(b.cli, "stack", "tag", "ls", "--json")).not.toContain(STACK_TAG);
        }
        expect(await heldBy(b)).toEqual([]);
        expect(activeOrders(s).filter((oid) => !before.includes(oid))).toEqual([oidA]);

        // B's VPS in London (another creation token), then A's destroy.
        await b.setConfig(dcKey, "DCLONDON");
        await pulumiText(b.cli, "up", "--yes", "--skip-preview");
        const [oidB] = activeOrders(s).filter((oid) => !before.includes(oid) && oid !== oidA);
        expect(oidB).toEqual(expect.any(Number));
        await pulumiText(a.cli, "destroy", "--yes", "--skip-preview");
        expect(activeOrders(s).filter((oid) => !before.includes(oid))).toEqual([oidB]);
        expect(await heldBy(b)).toEqual([oidB]);
        // Beside B's live VPS, three rounds of A's `up` and `destroy` and three `killed-orders --yes`: B's order
        // carries another stack's identity, so it is not A's business (issue 92): each says so in one line (how
        // many, where to see them) and exits 0; B's VPS stays billed.
        const oneLine =
          /1 order of stack dev's name \(\$[\d.]+ a month\) carries another stack's identity: not this stack's/;
        const linesAbout = (text: string) =>
          text.split("\n").filter((line) => line.includes("another stack"));
        // One program directory, one Pulumi.dev.yaml: A's VPS in Dallas again (B's in London is in B's state).
        await a.setConfig(dcKey, "DCDALLAS");
        for (let round = 0; round < 3; round++) {
          await pulumiText(a.cli, "up", "--yes", "--skip-preview");
          expect(activeOrders(s).filter((oid) => !before.includes(oid))).toHaveLength(2);
          const destroyed = await pulumiText(a.cli, "destroy", "--yes", "--skip-preview");
          // The engine's display shows a provider's line twice (beside the step, and under "Diagnostics"): the
          // provider said one line, so "Diagnostics" holds it once.
          expect(
            new Set(linesAbout(destroyed).map((line) => line.replace(/^.*\[rimuhosting\] /, ""))),
          ).toEqual(new Set([expect.stringMatching(oneLine)]));
          expect(linesAbout(destroyed.slice(destroyed.indexOf("Diagnostics:")))).toEqual([
            expect.stringMatching(oneLine),
          ]);
          expect(destroyed).not.toContain(`order ${oidB}`);
          expect(activeOrders(s).filter((oid) => !before.includes(oid))).toEqual([oidB]);
          const swept = await killedOrders(a.cli, front);
          expect(linesAbout(swept.text)).toEqual([expect.stringMatching(oneLine)]);
          expect(swept.text).not.toContain("Warning:");
          expect(swept.code).toBe(0);
        }
        expect(await heldBy(b)).toEqual([oidB]);
        // B's `--identity` prints the mark that order carries (the line counts it among the marks given); passed
        // back with --other-stack-mark (kept for those who pass it), the same one line, exit 0.
        const shown = await killedOrders(b.cli, front, ["--identity"]);
        expect(shown.stdout).toMatch(/^id3-[0-9a-f]{32}\n$/);
        const told = await killedOrders(a.cli, front, ["--yes", "--other-stack-mark", shown.stdout.trim()]);
        expect(linesAbout(told.text)).toEqual([
          expect.stringContaining("all of marks --other-stack-mark gave"),
        ]);
        expect(told.code).toBe(0);
        expect(activeOrders(s).filter((oid) => !before.includes(oid))).toEqual([oidB]);
        // B's destroy while RimuHosting lists no orders: it cannot judge what a killed run may have left, so it
        // fails, and its VPS, not cancelled, stays in B's state (stack-strays.ts); once the listing answers, it
        // cancels it.
        await b.setConfig("rimuhosting:retryLimit", "0");
        s.emulator.injectFault({ route: "listOrders", kind: "status", status: 503, times: 1000 });
        const unjudged = await pulumiFailure(b.cli, "destroy", "--yes", "--skip-preview").finally(() =>
          s.emulator.app.emulator.faults.clear(),
        );
        expect(unjudged).toContain("RIMU_ERR_LEFT_BILLED");
        expect(unjudged).toContain("the account's orders could not be listed");
        expect(await heldBy(b)).toEqual([oidB]);
        expect(activeOrders(s).filter((oid) => !before.includes(oid))).toEqual([oidB]);
        await pulumiText(b.cli, "destroy", "--yes", "--skip-preview");
        expect(activeOrders(s).filter((oid) => !before.includes(oid))).toEqual([]);
        expect(await heldBy(b)).toEqual([]);
      } finally {
        await a.close();
        await b.close();
        fs.rmSync(base, { recursive: true, force: true });
      }
    },
  );
});

// The gap the stack's own tag closes: one path naming two backends (`file:///srv/pulumi` on two machines, `/root` in
// two CI containers), and a committed Pulumi.dev.yaml whose `encryptionsalt` every `pulumi stack init dev` reuses.
// On one machine: the backend at a path, then moved away and another made at the same path. Two spellings of one
// backend's URL read one identity.
describeCliOnly("one backend path, one committed Pulumi.dev.yaml", () => {
  test("two stacks `dev` carry two identities; each keeps its own; `pulumi stack rm` gives a new one", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "identity-tag-"));
    const project = path.join(base, "shop");
    const backend = path.join(base, "srv-pulumi");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
    const env = { ...process.env, ...offlineCliEnv(backend) };
    const pulumi = (...args: string[]) =>
      execFileSync("pulumi", args, { cwd: project, env, encoding: "utf8" });
    const identity = async (spelled: Record<string, string> = {}) => {
      const read = await readStackIdentity(
        { project: "shop", stack: "dev" },
        { cwd: project, env: { ...env, ...spelled } },
        "mark",
      );
      if (!("mark" in read)) throw new Error(`no identity: ${read.unread}`);
      return read.mark;
    };
    const settings = path.join(project, "Pulumi.dev.yaml");
    try {
      fs.mkdirSync(backend);
      pulumi("stack", "init", "dev");
      const committed = fs.readFileSync(settings, "utf8");
      expect(committed).toMatch(/^encryptionsalt: /m);
      const first = await identity();
      expect(await identity()).toBe(first);
      // Other spellings of the same backend's URL (issue 92): one stack, one identity.
      for (const url of [`file://${backend}/`, `file://${base}/./srv-pulumi`])
        expect(await identity({ PULUMI_BACKEND_URL: url })).toBe(first);
      expect(JSON.parse(pulumi("stack", "tag", "ls", "--json"))).toEqual({
        [STACK_TAG]: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
      // The other machine: the same path, a backend of its own, the committed settings file (its salt reused).
      fs.renameSync(backend, `${backend}-first`);
      fs.mkdirSync(backend);
      pulumi("stack", "init", "dev");
      expect(fs.readFileSync(settings, "utf8")).toBe(committed);
      const second = await identity();
      expect(second).not.toBe(first);
      expect(await identity()).toBe(second);
      // Removed and made again (the settings file kept, as git would): a new stack, a new identity.
      pulumi("stack", "rm", "dev", "--yes", "--preserve-config");
      pulumi("stack", "init", "dev");
      expect(fs.readFileSync(settings, "utf8")).toBe(committed);
      const third = await identity();
      expect([first, second]).not.toContain(third);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
