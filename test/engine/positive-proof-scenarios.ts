// Ownership by positive proof (issue 92; provider/impl/ownership/may-cancel.ts) through the real CLI, on a file
// backend (positive-proof.test.ts) and on PostgreSQL and S3 (backends-postgres.test.ts, backends-s3.test.ts), on a
// YAML program (the native plugin):
// - a VPS kept with retainOnDelete and one removed with `pulumi state delete`, beside another: `pulumi destroy`
//   exits 0, cancels the other, and names each kept one once as having left the state on purpose (its `up`'s run
//   record, finished in the stack's history);
// - a replacement killed between its order and the answer (the emulator holds the order's answer back), then
//   `pulumi cancel` and `pulumi destroy`: none billed, with checkpoints (its pending create) and without them (the run
//   record the provider wrote before the order, its run unfinished).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { DEMO_API_KEY } from "../../emulator/index";
import { createClient, type RimuClient } from "../../provider/client/index";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import type { CliStack } from "./cli-stack";
import { runKilled } from "./kill-run";
import { pulumiText } from "./native-programs";
import { newTeamBackend, type TeamBackend, type TeamBackendKind } from "./team-backends";
import { yamlStack as yamlStackOn } from "./yaml-stacks";

/** A YAML VPS (1 GB, 20 GB, in `dc`), with `options` (YAML resource options) if given. */
export const yamlVps = (name: string, domainName: string, dc = "DCDALLAS", options = "") =>
  `  ${name}:\n    type: rimuhosting:index:Vps\n    properties:\n      domainName: ${domainName}\n` +
  `      dcLocation: ${dc}\n      pricingPlanCode: MIRO1B\n      distro: deb12.64\n      memoryMb: 1024\n` +
  `      diskSpaceMb: 20480\n${options ? `    options:\n${options}` : ""}`;

/** How long the emulator holds a new order's answer back: the run is killed well within it. */
const HOLD_MS = 120_000;

/** The scenarios on a backend of `kind`, inside the caller's describe. */
export function positiveProofScenarios(kind: "file" | TeamBackendKind): void {
  let emulator: TestEmulator;
  let client: RimuClient;
  let backend: TeamBackend | undefined;
  let scratch: string;
  const stacks: CliStack[] = [];

  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0 });
    client = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
    backend = kind === "file" ? undefined : await newTeamBackend(kind, `proof${kind}`);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), `positive-proof-${kind}-`));
  });
  afterAll(async () => {
    for (const stack of stacks) stack.close();
    client?.close();
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** A stack `name` of a YAML project of its own, its program `resources`, on this backend. */
  const yamlStack = (name: string, resources: string, env: Record<string, string> = {}) =>
    yamlStackOn({ scratch, baseUrl: emulator.baseUrl, backend, made: stacks }, name, resources, env);

  const active = (domain: string) =>
    emulator.snapshot().filter((o) => o.account === "demo" && !o.cancelled && o.domainName.endsWith(domain));

  test("retainOnDelete and `pulumi state delete`: destroy exits 0, cancels the other, names each kept one once", async () => {
    const domain = `.kept-${kind}.example.com`;
    const { stack } = await yamlStack(
      "kept",
      yamlVps("keep", `keep${domain}`, "DCDALLAS", "      retainOnDelete: true\n") +
        yamlVps("dropped", `dropped${domain}`) +
        yamlVps("other", `other${domain}`),
    );
    await pulumiText(stack, "up", "--yes", "--skip-preview");
    const placed = active(domain);
    expect(placed.map((o) => o.domainName).sort()).toEqual(
      ["dropped", "keep", "other"].map((n) => `${n}${domain}`),
    );
    await pulumiText(
      stack,
      "state",
      "delete",
      `urn:pulumi:${stack.name}::kept::rimuhosting:index:Vps::dropped`,
      "--yes",
    );
    const said = await pulumiText(stack, "destroy", "--yes", "--skip-preview");
    const left = active(domain);
    expect(left.map((o) => o.domainName).sort()).toEqual([`dropped${domain}`, `keep${domain}`]);
    // Each named once (the CLI shows each message live, then again under Diagnostics: counted there).
    const diagnostics = said.slice(said.indexOf("Diagnostics:"));
    for (const order of left) {
      const line = `order ${order.orderOid} (${order.domainName}, $`;
      expect(diagnostics.split(line).length - 1).toBe(1);
    }
    expect(diagnostics.split("stays billed: it left this stack's state on purpose").length - 1).toBe(2);
    expect(said).not.toContain("RIMU_ERR_LEFT_BILLED");
    for (const order of left)
      await client.deleteVps({ orderOid: order.orderOid, domainName: order.domainName });
  });

  test.each([
    ["with checkpoints", {}],
    ["without checkpoints", { PULUMI_SKIP_CHECKPOINTS: "true" }],
  ] as const)(
    "a replacement killed between its order and the answer, %s, then cancel and destroy: none billed",
    async (how, env) => {
      const domain = `.replaced-${kind}-${how.startsWith("with ") ? "cp" : "skip"}.example.com`;
      const { stack, write } = await yamlStack(
        `replaced${how.startsWith("with ") ? "cp" : "skip"}`,
        yamlVps("web", `web${domain}`),
        env,
      );
      await pulumiText(stack, "up", "--yes", "--skip-preview");
      expect(active(domain)).toHaveLength(1);
      // A move to London replaces the VPS: its new order is committed, its answer held back, and the run killed.
      write(yamlVps("web", `web${domain}`, "DCLONDON"));
      emulator.injectFault({ route: "createVps", kind: "delay-after-commit", delayMs: HOLD_MS });
      try {
        await runKilled(
          stack,
          "up",
          "the replacement's order to be committed",
          () => active(domain).length > 1,
        );
      } finally {
        emulator.app.emulator.faults.clear();
      }
      const [replaced, replacement] = active(domain);
      expect(replacement).toBeDefined();
      await stack.cancel();
      const said = await pulumiText(stack, "destroy", "--yes", "--skip-preview");
      expect(said).toContain(`order ${replacement!.orderOid} (web${domain}, $`);
      expect(said).toContain(
        how.startsWith("with ")
          ? "(a pending operation) carries its creation nonce"
          : "this stack's backend records the run that placed it, which kept no checkpoints and never finished",
      );
      expect(active(domain)).toEqual([]);
      expect(replaced).toBeDefined();
    },
  );
}
