/**
 * Adopted, drifted, repaired as the report says (issue 65, items 2 and 3), through the real CLI against the
 * emulator, in the languages issue 65 names: TypeScript, Python and Go on the native plugin's SDKs, and in Java
 * (issue 84; its program runs from a launcher jar once Maven compiled it: adopted-programs.ts). One
 * account of varied shapes (test/helpers/account-shapes.ts, seed 65), with a VPS whose international name is in its
 * punycode form beside them, is adopted by one stack per language (each on its own backend, so each adopts it all)
 * with `import-file` and `pulumi import --file` (no `up`: the documented adoption needs none), and the program it
 * writes, unedited and unprotected, previews with no change (issue 57 in these languages; YAML's: adopt.test.ts;
 * every VPS of five seeds' accounts in an SDK's form, in-process: test/provider/impl/import-shapes.test.ts).
 * Then, twice, once on the stack just imported and once after the `pulumi refresh` the advice asks for (the two
 * states that lack the `creationScope` a drift line names a VPS by), RimuHosting adds an IP address to one VPS, grows
 * another's second disk, moves a third to another host and schedules a fourth's cancellation, outside Pulumi; the
 * drift report of `pulumi refresh --preview-only --json` lists those 4 VPSs, each once, by resource name with its
 * domain name beside it, with each value as the account has it and no `undefined`; and its advice is followed as
 * written (`pulumi refresh`; the disk's new size and the new count of addresses written into the program). Then
 * `pulumi preview --expect-no-changes` exits 0, and the next `pulumi up` changes nothing at RimuHosting: the moved
 * VPSs stay on their new hosts with their new addresses. In-process, for every shape and both forms of program:
 * test/drift/advice-followed.test.ts and test/drift/report-naming.test.ts.
 * Not YAML here (CPU, issue 67: a fourth language's 8 CLI runs, about 15 CPU-s): the report and the advice are the
 * plugin's and the engine's, the same in every language, and YAML's own parts go through the CLI elsewhere: its
 * `import-file` and `pulumi import --out` with the preview of no change (adopt.test.ts), the drift report of a
 * move, a grown disk, an added IP address and a cancellation on a YAML program and the `pulumi refresh` that records
 * them (drift-native.test.ts); the advice followed in a YAML program, in-process (advice-followed.test.ts).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { ENDPOINTS, type AboutOrder } from "../../contract/index";
import { DEMO_API_KEY } from "../../emulator/index";
import { createClient } from "../../provider/client/index";
import { accountShapes, placeAccount } from "../helpers/account-shapes";
import { addIpAddress } from "../helpers/support-changes";
import { shell, shellOk } from "../docs/support/shell";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import {
  ADOPTED_PROJECTS,
  ADOPT_LANGUAGES,
  adoptingProject,
  codegenHostsDir,
  setInProgram,
  type AdoptLanguage,
} from "./adopted-programs";
import { driftReport } from "./drift-check";
import { REPO_ROOT, describeNative, languageSkipReason } from "./native-programs";

const run = promisify(execFile);
jest.setTimeout(900_000); // Go builds the program with `go build`

const PLUGIN = path.join(REPO_ROOT, "bin", "pulumi-resource-rimuhosting");
const SEED = 65;
/** Enough VPSs that each of the rounds (two per language) cancels one of its own and still has one to move. */
const SHAPES = accountShapes(SEED, 16);
const INTERNATIONAL = "xn--caf-dma.example.com";
/** The languages issue 65 asks for through the CLI (the header says where YAML's parts are proved). */
const LANGUAGES = ADOPT_LANGUAGES.filter((language) => language !== "yaml");

let emulator: TestEmulator;
let byHand: ReturnType<typeof createClient>;
let scratch: string;
let codegenHosts: string;
/** The account's order numbers, in the order of SHAPES, and the international name's. */
let oids: number[];
let intlOid: number;
/** The orders whose cancellation a round scheduled: no later round moves or cancels them. */
const cancelledSoFar = new Set<number>();

beforeAll(async () => {
  if (LANGUAGES.every((language) => languageSkipReason(language))) return;
  emulator = await startTestEmulator({ timeScale: 0, seed: SEED, control: true });
  byHand = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "drift-advice-"));
  codegenHosts = await codegenHostsDir();
  oids = await placeAccount(emulator, SHAPES);
  // An international name, in the form DNS writes it (docs/rimuhosting-api.md, "Domain names"): adopted too.
  const intl = await emulator.api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
    "POST",
    "/orders/new-vps",
    {
      new_order_request: {
        instantiation_options: { domain_name: INTERNATIONAL, distro: "deb12.64" },
        dc_location: "DCDALLAS",
      },
    },
  );
  expect(intl.status).toBe(200);
  intlOid = intl.body.post_new_vps_response.about_order.order_oid;
});
afterAll(async () => {
  byHand?.close();
  await emulator?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The calls since request `mark` that change something at RimuHosting (ENDPOINTS' `mutates`). */
const changesSince = (mark: number) =>
  emulator
    .requestLog()
    .slice(mark)
    .filter((e) => e.route !== "unknown" && ENDPOINTS[e.route].mutates)
    .map((e) => `${e.method} ${e.route}`);

const ipCountOf = (order: AboutOrder) => 1 + (order.allocated_ips?.secondary_ips?.length ?? 0);

/**
 * The 4 VPSs a round changes, as indexes into SHAPES: each its own, none of them cancelled already, and one the
 * language's earlier round did not change when one fits (so the second round changes other VPSs where it can).
 */
function roundTargets(changedBefore: ReadonlySet<number>) {
  const taken: number[] = [];
  /** The first VPS that fits, the `preferred` ones first, each group those not changed before first. */
  const pick = (fits: (i: number) => boolean, preferred: (i: number) => boolean = () => true) => {
    const free = SHAPES.map((_, i) => i).filter(
      (i) => fits(i) && !taken.includes(i) && !cancelledSoFar.has(oids[i]!),
    );
    const rank = (i: number) => (preferred(i) ? 0 : 2) + (changedBefore.has(i) ? 1 : 0);
    const i = free.sort((a, b) => rank(a) - rank(b) || a - b)[0];
    if (i === undefined) throw new Error("the account has no VPS left for this round: make SHAPES larger");
    taken.push(i);
    return i;
  };
  const movable = (i: number) => !SHAPES[i]!.cancelAtPeriodEnd && !SHAPES[i]!.dedicatedHost;
  const inDallas = (i: number) => SHAPES[i]!.dc === "DCDALLAS";
  const ips = pick((i) => SHAPES[i]!.ipCount > 1);
  const disks = pick((i) => SHAPES[i]!.diskSpace2Mb > 0);
  // Moved within Dallas, which has hosts to spare; cancelled elsewhere first, to keep Dallas's VPSs for the moves.
  const moved = pick((i) => movable(i) && inDallas(i));
  const cancelled = pick(movable, (i) => !inDallas(i));
  return { ips, disks, moved, cancelled };
}

/**
 * Adopts the account in `language`, then changes it outside Pulumi twice (on the stack just imported; after the
 * advice's `pulumi refresh`), checking the report and following its advice each time; then the preview and the up.
 */
async function adoptedDriftRepaired(language: AdoptLanguage): Promise<void> {
  const project = ADOPTED_PROJECTS[language];
  const dir = path.join(scratch, language);
  const { env, sh } = await adoptingProject(dir, language, "prod", emulator.baseUrl, codegenHosts, shellOk);
  await sh(`${PLUGIN} import-file --out vpss.json`);
  // --skip-preview, here and below where a command's own preview is not what is checked: it reads every VPS once
  // more (a preview of a refresh or an import), or runs the program once more (up's), for nothing the test looks at.
  const imported = await sh(
    `pulumi import --file vpss.json --protect=false --out ${project.out} --yes --skip-preview --non-interactive`,
  );
  expect(imported).toMatch(new RegExp(`= ${SHAPES.length + 1} imported`));
  Object.assign(env, await project.prepare(dir, scratch));
  // Adopted as written (issue 57; YAML's: adopt.test.ts): the program `pulumi import` wrote, with nothing edited and
  // nothing protected, previews with no change, an SDK's defaults (ipCount 1) never differing from what runs.
  const adopted = await shell("pulumi preview --expect-no-changes --non-interactive", { cwd: dir, env });
  expect({ language, code: adopted.code, unchanged: adopted.output.match(/\d+ unchanged/)?.[0] }).toEqual({
    language,
    code: 0,
    unchanged: `${SHAPES.length + 2} unchanged`,
  });
  const programFile = path.join(dir, project.program);
  const program = () => fs.readFileSync(programFile, "utf8");
  // The host is RimuHosting's to change: an imported program leaves it out, so a move leaves the program right.
  expect(program()).not.toMatch(/host_?server_?oid/i);
  const names = (
    JSON.parse(fs.readFileSync(path.join(dir, "vpss.json"), "utf8")) as {
      resources: { name: string; id: string }[];
    }
  ).resources;
  expect(names).toHaveLength(SHAPES.length + 1);
  expect(names).toContainEqual(expect.objectContaining({ name: "xnCafDmaExampleCom", id: String(intlOid) }));
  const nameOf = (i: number) => names.find((r) => r.id === String(oids[i]))!.name;

  const movedTo = new Map<number, AboutOrder>();
  const changedBefore = new Set<number>();
  for (const when of ["on the stack just imported", "after `pulumi refresh`"]) {
    const { ips, disks, moved, cancelled } = roundTargets(changedBefore);
    for (const i of [ips, disks, moved, cancelled]) changedBefore.add(i);
    // Outside Pulumi: an IP address added, a second disk grown, a move, a cancellation scheduled.
    const ipsBefore = (await byHand.getOrder(oids[ips]!)).about_order;
    const addedIp = await addIpAddress(emulator.baseUrl, oids[ips]!);
    const diskBefore = (await byHand.getOrder(oids[disks]!)).about_order.vps_parameters!.disk_space_2_mb!;
    const grownTo = diskBefore + 4096;
    await byHand.changeParameters(oids[disks]!, { disk_space_2_mb: grownTo });
    const before = (await byHand.getOrder(oids[moved]!)).about_order;
    const after = (await byHand.moveVps(oids[moved]!, { is_update_dns: false })).about_order;
    expect(after.host_server_oid).not.toBe(before.host_server_oid);
    movedTo.set(oids[moved]!, after);
    await byHand.cancelOrder(oids[cancelled]!);
    cancelledSoFar.add(oids[cancelled]!);

    // The check: 4 VPSs, each once, by resource name with its domain name. --json prints the JSON on stdout alone;
    // the exit code 7 says there is drift.
    const check = await run(
      "pulumi",
      ["refresh", "--preview-only", "--expect-no-changes", "--json", "--non-interactive"],
      { cwd: dir, env: { ...process.env, ...env }, maxBuffer: 64 << 20 },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code, stdout: error.stdout ?? "" }),
    );
    expect({ when, code: check.code }).toEqual({ when, code: 7 });
    const { markdown } = await driftReport(check.stdout);
    const context = `${language}, ${when}:\n${markdown}`;
    const has = (text: string) =>
      expect({ context, has: markdown.includes(text) }).toEqual({ context, has: true });
    has("**Drift in stack `prod` of project `adopted`: 4 VPSs changed outside Pulumi**");
    expect(markdown).not.toContain("undefined");
    for (const i of [ips, disks, moved, cancelled]) has(`| ${nameOf(i)} (${SHAPES[i]!.domainName}) |`);
    has(`| ${nameOf(ips)} (${SHAPES[ips]!.domainName}) | secondaryIps |`);
    has(addedIp);
    has(`| diskSpace2Mb | ${diskBefore} → ${grownTo} |`);
    has(`| hostServerOid | ${before.host_server_oid} → ${after.host_server_oid} |`);
    has(`| primaryIp | ${before.allocated_ips!.primary_ip} → ${after.allocated_ips!.primary_ip} |`);
    expect(markdown).toMatch(/\| cancellationDate \| none → \d{4}-/);
    const rows = markdown.split("\n").filter((line) => /^\| [^-V]/.test(line));
    expect({ context, vpss: new Set(rows.map((row) => row.split(" | ")[0])).size }).toEqual({
      context,
      vpss: 4,
    });

    // The advice, as written: the grown disk's size and the new count of addresses into the program (a disk cannot
    // shrink; imported programs set ipCount, as an SDK's default of 1 would replace a VPS of several), then
    // `pulumi refresh`.
    has("A disk cannot shrink: write the new size in the program, then run `pulumi refresh`");
    has("The VPS keeps its new host and addresses: `pulumi refresh` records them");
    const ipCount = ipCountOf(ipsBefore);
    has(`| ipCount | ${ipCount} → ${ipCount + 1} |`);
    has("one that sets `ipCount` must say the new count first");
    let code = program();
    code = setInProgram(language, code, nameOf(disks), "diskSpace2Mb", diskBefore, grownTo);
    code = setInProgram(language, code, nameOf(ips), "ipCount", ipCount, ipCount + 1);
    fs.writeFileSync(programFile, code);
    await sh("pulumi refresh --yes --skip-preview --non-interactive");
  }

  // Java's launcher jar runs compiled classes: the advice's edits compiled first (Maven would, at the preview).
  await project.edited?.(dir);
  const preview = await shell("pulumi preview --expect-no-changes --non-interactive", { cwd: dir, env });
  if (preview.code !== 0)
    throw new Error(
      `${language}: pulumi preview --expect-no-changes exited ${preview.code}:\n${preview.output}`,
    );
  const mark = emulator.requestLog().length;
  // The preview just before is the claim's; this up's own would repeat it.
  await sh("pulumi up --yes --skip-preview --non-interactive");
  expect(changesSince(mark)).toEqual([]);
  for (const [oid, after] of movedTo) {
    const now = (await byHand.getOrder(oid)).about_order;
    expect([now.host_server_oid, now.allocated_ips?.primary_ip]).toEqual([
      after.host_server_oid,
      after.allocated_ips?.primary_ip,
    ]);
  }
}

describe.each(LANGUAGES)("adopted in %s", (language) => {
  describeNative(language, "drift of an adopted account, and its advice followed", () => {
    test("changed outside Pulumi, twice: 4 VPSs reported once each; the advice leaves the program right", () =>
      adoptedDriftRepaired(language));
  });
});
