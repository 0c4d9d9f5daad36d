/**
 * Adopted, drifted, repaired as the report says (issue 65, items 2 and 3), through the real CLI against the
 * emulator, on the native plugin from YAML: an account of varied shapes (test/helpers/account-shapes.ts, seed 65) is
 * adopted with `import-file` and `pulumi import --file` (no `up`: the documented adoption needs none), with a VPS
 * whose international name is in its punycode form beside them (its program previews as any other). Outside
 * Pulumi, RimuHosting then adds an IP address to one VPS, grows another's second disk, moves a third to another
 * host and schedules a fourth's cancellation. On the stack just imported, the drift report of `pulumi refresh
 * --preview-only --json` lists those 4 VPSs, each once, by resource name with its domain name beside it, and no
 * `undefined`. Its advice followed as written (`pulumi refresh`; the disk's new size written into the program) leaves
 * `pulumi preview --expect-no-changes` at 0, and the next `pulumi up` leaves the moved VPS on its new host with its
 * new address. In-process, for every shape and both forms of program: test/drift/advice-followed.test.ts and
 * test/drift/report-naming.test.ts.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { DEMO_API_KEY } from "../../emulator/index";
import { createClient } from "../../provider/client/index";
import { accountShapes, placeAccount } from "../helpers/account-shapes";
import { addIpAddress } from "../helpers/support-changes";
import { shell, shellOk } from "../docs/support/shell";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { offlineCliEnv } from "./cli-stack";
import { driftReport } from "./drift-check";
import { REPO_ROOT, describeNative, pluginEntry } from "./native-programs";

const run = promisify(execFile);
jest.setTimeout(600_000);

const PLUGIN = path.join(REPO_ROOT, "bin", "pulumi-resource-rimuhosting");
const SEED = 65;

describeNative("yaml", "drift of an adopted account, and its advice followed", () => {
  let emulator: TestEmulator;
  let scratch: string;
  beforeAll(async () => {
    emulator = await startTestEmulator({ timeScale: 0, seed: SEED, control: true });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "drift-advice-"));
  });
  afterAll(async () => {
    await emulator?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  test("imported, changed outside Pulumi: 4 VPSs reported once each; the advice leaves the program right", async () => {
    const shapes = accountShapes(SEED, 8);
    const oids = await placeAccount(emulator, shapes);
    // An international name, in the form DNS writes it (docs/rimuhosting-api.md, "Domain names"): adopted too.
    const intl = await emulator.api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
      "POST",
      "/orders/new-vps",
      {
        new_order_request: {
          instantiation_options: { domain_name: "xn--caf-dma.example.com", distro: "deb12.64" },
          dc_location: "DCDALLAS",
        },
      },
    );
    expect(intl.status).toBe(200);
    const byHand = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
    const { stdout: hosts } = await run(path.join(REPO_ROOT, "scripts", "codegen-hosts.sh"));
    fs.mkdirSync(path.join(scratch, "backend"));
    const env = {
      ...offlineCliEnv(path.join(scratch, "backend")),
      PATH: `${hosts.trim().split("\n").pop()!}${path.delimiter}${process.env.PATH}`,
    };
    const sh = (line: string) => shellOk(line, { cwd: scratch, env });
    fs.writeFileSync(path.join(scratch, "Pulumi.yaml"), `name: adopted\nruntime: yaml\n${pluginEntry()}`);
    await sh("pulumi stack init prod --non-interactive");
    await sh(`pulumi config set rimuhosting:baseUrl ${emulator.baseUrl}`);
    await sh(`pulumi config set --secret rimuhosting:apiKey ${DEMO_API_KEY}`);
    await sh(`${PLUGIN} import-file --out vpss.json`);
    await sh("pulumi import --file vpss.json --protect=false --out adopted.yaml --yes --non-interactive");
    fs.renameSync(path.join(scratch, "adopted.yaml"), path.join(scratch, "Main.yaml"));
    const program = () => fs.readFileSync(path.join(scratch, "Main.yaml"), "utf8");
    expect(program()).not.toContain("hostServerOid");
    const names = (
      JSON.parse(fs.readFileSync(path.join(scratch, "vpss.json"), "utf8")) as {
        resources: { name: string; id: string }[];
      }
    ).resources;
    const nameOf = (i: number) => names.find((r) => r.id === String(oids[i]))!.name;
    expect(names).toContainEqual(
      expect.objectContaining({
        name: "xnCafDmaExampleCom",
        id: String(intl.body.post_new_vps_response.about_order.order_oid),
      }),
    );

    // Outside Pulumi: an IP address added, a second disk grown, a move, a cancellation scheduled.
    const ips = shapes.findIndex((s) => s.ipCount > 1);
    const disks = shapes.findIndex((s) => s.diskSpace2Mb > 0);
    const moved = shapes.findIndex(
      (s, i) => i !== ips && i !== disks && !s.cancelAtPeriodEnd && !s.dedicatedHost && s.dc === "DCDALLAS",
    );
    const cancelled = shapes.findIndex(
      (s, i) => ![ips, disks, moved].includes(i) && !s.cancelAtPeriodEnd && !s.dedicatedHost,
    );
    const addedIp = await addIpAddress(emulator.baseUrl, oids[ips]!);
    const grownTo = shapes[disks]!.diskSpace2Mb + 4096;
    await byHand.changeParameters(oids[disks]!, { disk_space_2_mb: grownTo });
    const before = (await byHand.getOrder(oids[moved]!)).about_order;
    const after = (await byHand.moveVps(oids[moved]!, { is_update_dns: false })).about_order;
    expect(after.host_server_oid).not.toBe(before.host_server_oid);
    await byHand.cancelOrder(oids[cancelled]!);

    // The check on the stack just imported: 4 VPSs, each once, by resource name with its domain name.
    // --json prints the JSON on stdout alone; the exit code 7 says there is drift.
    const check = await run(
      "pulumi",
      ["refresh", "--preview-only", "--expect-no-changes", "--json", "--non-interactive"],
      {
        cwd: scratch,
        env: { ...process.env, ...env },
        maxBuffer: 64 << 20,
      },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code, stdout: error.stdout ?? "" }),
    );
    expect(check.code).toBe(7);
    const { markdown } = await driftReport(check.stdout);
    expect(markdown).toContain(
      "**Drift in stack `prod` of project `adopted`: 4 VPSs changed outside Pulumi**",
    );
    expect(markdown).not.toContain("undefined");
    for (const i of [ips, disks, moved, cancelled])
      expect(markdown).toContain(`| ${nameOf(i)} (${shapes[i]!.domainName}) |`);
    expect(markdown).toContain(`| secondaryIps |`);
    expect(markdown).toContain(addedIp);
    expect(markdown).toContain(`| diskSpace2Mb | ${shapes[disks]!.diskSpace2Mb} → ${grownTo} |`);
    expect(markdown).toContain(`| hostServerOid | ${before.host_server_oid} → ${after.host_server_oid} |`);
    expect(markdown).toContain(
      `| primaryIp | ${before.allocated_ips!.primary_ip} → ${after.allocated_ips!.primary_ip} |`,
    );
    expect(markdown).toMatch(/\| cancellationDate \| none → \d{4}-/);
    const rows = markdown.split("\n").filter((line) => /^\| [^-V]/.test(line));
    expect(new Set(rows.map((row) => row.split(" | ")[0])).size).toBe(4);

    // The advice, as written: the grown disk's size into the program (a disk cannot shrink), then `pulumi refresh`.
    expect(markdown).toContain(
      "A disk cannot shrink: write the new size in the program, then run `pulumi refresh`",
    );
    expect(markdown).toContain("The VPS keeps its new host and addresses: `pulumi refresh` records them");
    /** Writes `value` as `property` of resource `name` in the program, as a user edits it. */
    const write = (name: string, property: string, from: number, value: number) => {
      const block = new RegExp(`(  ${name}:\\n(?:    .*\\n)*?      ${property}: )${from}\\n`);
      expect(program()).toMatch(block);
      fs.writeFileSync(path.join(scratch, "Main.yaml"), program().replace(block, `$1${value}\n`));
    };
    write(nameOf(disks), "diskSpace2Mb", shapes[disks]!.diskSpace2Mb, grownTo);
    // Imported programs set ipCount (an SDK's default of 1 would replace a VPS of several): the advice's own case.
    expect(markdown).toContain(`| ipCount | ${shapes[ips]!.ipCount} → ${shapes[ips]!.ipCount + 1} |`);
    expect(markdown).toContain("one that sets `ipCount` must say the new count first");
    write(nameOf(ips), "ipCount", shapes[ips]!.ipCount, shapes[ips]!.ipCount + 1);
    expect(program()).toContain(`diskSpace2Mb: ${grownTo}`);
    await sh("pulumi refresh --yes --non-interactive");
    const preview = await shell("pulumi preview --expect-no-changes --non-interactive", {
      cwd: scratch,
      env,
    });
    if (preview.code !== 0)
      throw new Error(`pulumi preview --expect-no-changes exited ${preview.code}:\n${preview.output}`);
    await sh("pulumi up --yes --non-interactive");
    const now = (await byHand.getOrder(oids[moved]!)).about_order;
    expect([now.host_server_oid, now.allocated_ips?.primary_ip]).toEqual([
      after.host_server_oid,
      after.allocated_ips?.primary_ip,
    ]);
    byHand.close();
  });
});
