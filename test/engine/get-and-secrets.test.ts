// Vps.get reads an order into a program without managing it; secrets given as plain strings never reach the stored
// state, the CLI's output or any log. Through the real CLI.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_API_KEY } from "../../emulator/index";
import { describeCliOnly } from "./describe-cli";
import { isSecret } from "./property-values";
import { liveOrders, startScenario, vpsOps, type Scenario } from "./e2e-support";

jest.setTimeout(240_000);

const FIXTURES = path.join(__dirname, "fixtures");

describeCliOnly("Vps.get", () => {
  let s: Scenario;
  let oid: number;

  beforeAll(async () => {
    s = await startScenario("vps-get", { programDir: path.join(FIXTURES, "vps-get") });
    const created = await s.client.createVps({
      instantiation_options: { domain_name: "elsewhere.example.com", distro: "deb12.64" },
      vps_parameters: { memory_mb: 1536 },
    });
    oid = created.about_order.order_oid;
    await s.stack.setConfig("orderOid", String(oid));
  });
  afterAll(async () => s?.close());

  test("preview and up read the order and change nothing", async () => {
    const mark = s.mark();
    expect(vpsOps(await s.stack.preview())).toEqual({ existing: "read" });
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ existing: "read" });
    expect(r.outputs.domainName).toBe("elsewhere.example.com");
    expect(r.outputs.memoryMb).toBe(1536);
    expect(r.outputs.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(s.mutationsSince(mark)).toEqual([]);
  });

  test("refresh reads it again; destroy forgets it and leaves the order alone", async () => {
    await s.client.changeParameters(oid, { memory_mb: 2048 });
    await s.stack.refresh();
    const mark = s.mark();
    const destroyed = await s.stack.destroy();
    expect(vpsOps(destroyed)).not.toHaveProperty("existing", "delete");
    expect(s.mutationsSince(mark)).toEqual([]);
    expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);
  });
});

describeCliOnly("secrets", () => {
  const canaries = {
    CANARY_PASSWORD: `pw-${crypto.randomBytes(8).toString("hex")}`,
    CANARY_CLOUD_CONFIG: `cc-${crypto.randomBytes(8).toString("hex")}`,
    CANARY_FILE: `file-${crypto.randomBytes(8).toString("hex")}`,
  };
  const secrets = { ...canaries, API_KEY: DEMO_API_KEY };
  const output: string[] = [];
  let s: Scenario;

  beforeAll(async () => {
    s = await startScenario("secrets", {
      programDir: path.join(FIXTURES, "secrets"),
      env: canaries,
      onCliOutput: (text) => output.push(text),
      // The passphrase, as a user's stack is keyed (not the harness's key service: stack-keys.ts).
      keys: "passphrase",
    });
  });
  afterAll(async () => s?.close());

  /** Every place a secret could leak to: the exported state, the display, and every file the run wrote. */
  async function leaks(): Promise<string[]> {
    const places: [string, string][] = [
      ["pulumi stack export", await s.stack.exportState()],
      ["the CLI's output", output.join("")],
      ["the emulator's request log", JSON.stringify(s.emulator.requestLog())],
    ];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else places.push([path.relative(s.workDir, file), fs.readFileSync(file, "utf8")]);
      }
    };
    walk(s.workDir); // the backend (state, history, backups), PULUMI_HOME (logs, workspaces)
    const found: string[] = [];
    for (const [name, secret] of Object.entries(secrets))
      for (const [place, text] of places) if (text.includes(secret)) found.push(`${name} in ${place}`);
    return found;
  }

  test("up, refresh and destroy keep every secret out of state, output and logs", async () => {
    const r = await s.stack.up();
    expect(vpsOps(r)).toEqual({ secretive: "create" });
    expect(isSecret(r.outputs.password)).toBe(true);
    expect(await leaks()).toEqual([]);
    await s.stack.refresh();
    expect(await leaks()).toEqual([]);
    await s.stack.destroy();
    expect(await leaks()).toEqual([]);
    expect(liveOrders(s.emulator)).toEqual([]);
  });
});
