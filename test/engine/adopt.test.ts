/**
 * Adoption in one command, through the real CLI against an emulator account of 31 VPSs of varied shapes (issue 57;
 * test/helpers/account-shapes.ts, seed 1: several IPs, a second disk, stopped, each data centre, an unlisted distro, a
 * dedicated VPS on a chosen host, another billing method, a cancellation at the period's end, domain names that
 * collide or hold characters an identifier cannot): in a YAML project, `pulumi-resource-rimuhosting import-file` (the
 * checkout's plugin, reading the API key and address from the stack's config) writes the import file, leaving out the
 * one VPS a Pulumi stack created;
 * `pulumi import --file --protect=false` adopts the other 30 and writes the program, from the plugin's schema; and the
 * next `pulumi preview` of that program, with nothing edited and nothing protected, shows no change
 * (`--expect-no-changes`). import-file then offers none again. The stack is then removed without touching the VPSs,
 * and nothing was ordered, changed or cancelled.
 * Once through the CLI (CPU, issue 67): the same in TypeScript, Python and Go, an SDK's defaults (ipCount 1) never
 * differing from what runs, is test/engine/drift-advice.test.ts's first check of each language, on an account of
 * seed 65; every VPS of five seeds' accounts (1, 2, 3, 57, 2026) in both forms a program sends, YAML's and an SDK's,
 * is test/provider/impl/import-shapes.test.ts's, at L1. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ENDPOINTS } from "../../contract/index";
import { CREATION_NONCE_KEY, CREATION_TOKEN_KEY } from "../../provider/client/index";
import { uniqueNames } from "../../provider/adopt/resource-names";
import { accountShapes, placeAccount } from "../helpers/account-shapes";
import { shell, shellOk } from "../docs/support/shell";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { ADOPTED_PROJECTS, adoptingProject, codegenHostsDir, type AdoptLanguage } from "./adopted-programs";
import { REPO_ROOT, describeNative, languageSkipReason } from "./native-programs";

jest.setTimeout(600_000);

const PLUGIN = path.join(REPO_ROOT, "bin", "pulumi-resource-rimuhosting");
/** The account's seed (accountShapes): 30 VPSs to adopt, each shape at least once, the rest mixed. */
const SEED = 1;

/** The account of the seed being tried: its emulator, its VPSs, the names import-file gives them. */
let emulator: TestEmulator;
let SHAPES: ReturnType<typeof accountShapes>;
let NAMES: string[];
let createdByStack: number;
let scratch: string;
let codegenHosts: string;

async function order(domainName: string, dc: string, token?: string): Promise<number> {
  const placed = await emulator.api<{ post_new_vps_response: { about_order: { order_oid: number } } }>(
    "POST",
    "/orders/new-vps",
    {
      new_order_request: {
        instantiation_options: { domain_name: domainName, distro: "deb12.64" },
        dc_location: dc,
        // With a token, as the provider's create places it: its creation token and this state's nonce.
        meta_data:
          token === undefined
            ? []
            : [
                { key_name: CREATION_TOKEN_KEY, value: token },
                { key_name: CREATION_NONCE_KEY, value: "0123456789abcdef0123456789abcdef" },
              ],
      },
    },
  );
  if (placed.status !== 200) throw new Error(`the emulator refused the order: ${placed.text}`);
  return placed.body.post_new_vps_response.about_order.order_oid;
}

/** YAML: no SDK to install, no program to build (about 50 s of a CI worker against 130-150 s for the others). */
const LANGUAGE = "yaml" as const;

beforeAll(async () => {
  if (languageSkipReason(LANGUAGE)) return;
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "adopt-"));
  codegenHosts = await codegenHostsDir();
});
afterAll(() => {
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The seed's account in a fresh emulator, and the one VPS a stack created beside it. */
async function startAccount(seed: number): Promise<void> {
  emulator = await startTestEmulator({ timeScale: 0, seed });
  SHAPES = accountShapes(seed, 30);
  // import-file names the account's VPSs oldest order first (a later VPS never renames an older one), and
  // placeAccount orders them in SHAPES' order.
  NAMES = uniqueNames(SHAPES.map((s) => s.domainName)).sort();
  await placeAccount(emulator, SHAPES);
  createdByStack = await order("ci.example.com", "DCDALLAS", "vps-0123456789abcdef0123456789abcdef");
}

const liveOrders = () => emulator.snapshot().filter((o) => !o.cancelled);
/** The calls since request `mark` that change something at RimuHosting (ENDPOINTS' `mutates`). */
const changesSince = (mark: number) =>
  emulator
    .requestLog()
    .slice(mark)
    .filter((e) => e.route !== "unknown" && ENDPOINTS[e.route].mutates)
    .map((e) => `${e.method} ${e.route}`);

describe.each([{ seed: SEED, language: LANGUAGE as AdoptLanguage }])(
  "the account of seed $seed",
  ({ seed, language }) => {
    beforeAll(() => (languageSkipReason(language) ? undefined : startAccount(seed)));
    afterAll(() => emulator?.close());

    describeNative(
      language,
      `import-file, pulumi import --file, preview: 30 VPSs of varied shapes adopted in ${language}`,
      () => {
        test("the program pulumi import writes previews with no change", async () => {
          const project = ADOPTED_PROJECTS[language];
          const dir = path.join(scratch, `${seed}-${language}`);
          const { env, sh } = await adoptingProject(
            dir,
            language,
            "dev",
            emulator.baseUrl,
            codegenHosts,
            shellOk,
          );
          const mark = emulator.requestLog().length;

          // No RIMUHOSTING_* in the environment: the command reads the stack's config, as the plugin does.
          const written = await sh(`${PLUGIN} import-file --out vpss.json`);
          expect(written).toContain(
            `left out 1 VPS that a Pulumi stack manages: ci.example.com (order ${createdByStack}: a stack created it)`,
          );
          expect(written).toContain("30 VPSs to adopt, written to vpss.json.");
          const file = JSON.parse(fs.readFileSync(path.join(dir, "vpss.json"), "utf8")) as {
            resources: { name: string; id: string }[];
          };
          expect(file.resources.map((r) => r.name).sort()).toEqual(NAMES);

          const imported = await sh(
            // Its own preview would read the 30 VPSs once more, for nothing checked here.
            `pulumi import --file vpss.json --protect=false --out ${project.out} --yes --skip-preview --non-interactive`,
          );
          expect(imported).toMatch(/= 30 imported/);
          const code = fs.readFileSync(path.join(dir, project.out), "utf8");
          for (const name of NAMES) expect(code).toContain(name);
          expect(code).toContain("shop-example.com");
          // The YAML host writes a whole number in float notation (docs/native-plugin.md#pulumi-import); the preview
          // below reads it back exactly.
          if (language === "yaml") expect(code).toMatch(/billingOid: \d\.\d+e\+0\d/);

          Object.assign(env, await project.prepare(dir, scratch));
          const preview = await shell("pulumi preview --expect-no-changes --non-interactive", {
            cwd: dir,
            env,
          });
          expect(preview.output).toMatch(/31 unchanged/);
          expect(preview.output).not.toMatch(/to (create|update|replace|delete)/);
          expect(preview.code).toBe(0);

          // Adopted once: the stack's state now holds all 30, so import-file offers none again (issue 57, item 2).
          const again = await shell(`${PLUGIN} import-file --out again.json`, { cwd: dir, env });
          expect(again.output).toContain("left out 31 VPSs that a Pulumi stack manages: ");
          expect(again.output).toContain(`(order ${file.resources[0]!.id}: in stack dev)`);
          expect(again.output).toContain("no VPS to adopt: the account has none besides those left out.");
          expect(again.code).toBe(1);
          expect(fs.existsSync(path.join(dir, "again.json"))).toBe(false);

          await sh("pulumi stack rm dev --force --yes --non-interactive");
          expect(changesSince(mark)).toEqual([]);
          // Every order as it was: the one cancelled at its period's end is the emulator's "cancelled" already.
          expect(liveOrders()).toHaveLength(31 - SHAPES.filter((shape) => shape.cancelAtPeriodEnd).length);
        });
      },
    );
  },
);
