// The policy pack as a user of the release gets it (docs/cost.md#the-policy-pack): its release tarball, packed as
// `npm run release:build` packs it (tools/release/policy-pack.ts; packed here alone, not by a whole release build,
// which costs minutes of CPU) and served on 127.0.0.1 where GitHub serves a release's files; the page's steps run in
// order, in a user's environment (test/docs/support/user-env.ts), in a project's directory holding nothing of the
// repository: download, unpack, the one install step, the config file the page shows, then the page's preview through
// the real CLI, on a YAML program whose three VPSs cost more a month than the page's budget: `monthly-budget` fails
// it, and nothing is ordered.
import * as fs from "node:fs";
import * as path from "node:path";
import { packageVersion } from "../../provider/native/pack";
import { sourceDateEpoch } from "../../tools/release/archive";
import { packPolicyPack } from "../../tools/release/policy-pack";
import { commandLines, recipe } from "../docs/support/code-blocks";
import { writeNpxStandIn } from "../docs/support/npx-stand-in";
import { QUIET_NPM_ENV, shell } from "../docs/support/shell";
import { dirOnPath, HARNESS_ENV, userEnv } from "../docs/support/user-env";
import { asServed, PAGES_RELEASE_URL } from "../package/support/release-routes";
import {
  releaseDownloadPath,
  serveReleaseFiles,
  type ReleaseServer,
} from "../package/support/release-server";
import type { Scenario } from "./e2e-support";
import { describeNative, REPO_ROOT, startNativeScenario, writeYamlProgram } from "./native-programs";

jest.setTimeout(600_000);

const PAGE = "docs/cost.md";
const version = packageVersion();

/** Three VPSs of the first plan: $30.00 a month in the emulator, over the page's $25 budget. */
const THREE_VPSS = ["web1", "web2", "web3"]
  .map(
    (name) =>
      `  ${name}:\n    type: rimuhosting:Vps\n    properties:\n      domainName: ${name}.example.com\n` +
      `      dcLocation: DCDALLAS\n      distro: deb12.64\n`,
  )
  .join("");

describeNative("yaml", "the release's policy pack, installed and run as docs/cost.md says", () => {
  let s: Scenario;
  let release: ReleaseServer;
  /** The user's project: the YAML program, where the page's steps run. */
  let project: string;
  /** The page's environment: what it sets (nothing), the harness's CLI settings for this stack, the YAML host. */
  let env: Record<string, string>;

  beforeAll(async () => {
    project = writeYamlProgram("shop", `resources:\n${THREE_VPSS}`);
    // The page's steps run on this stack in the page's environment (the harness's PULUMI_* settings only): keyed
    // by the passphrase, as a user's stack is, not the harness's key service (its address is not among them).
    s = await startNativeScenario(project, { keys: "passphrase" });
    const scratch = path.join(s.workDir, "release");
    fs.mkdirSync(scratch);
    const tarball = await packPolicyPack(REPO_ROOT, scratch, version, sourceDateEpoch());
    release = await serveReleaseFiles(version, [tarball]);
    const cliEnv = s.stack.cli.commandEnv();
    const harness = Object.fromEntries(
      HARNESS_ENV.filter((name) => name.startsWith("PULUMI_") && cliEnv[name] !== undefined).map((name) => [
        name,
        cliEnv[name]!,
      ]),
    );
    env = userEnv(PAGE, {}, { ...QUIET_NPM_ENV, ...harness }, dirOnPath("pulumi-language-yaml"));
  });
  afterAll(async () => {
    await release?.close();
    await s?.close();
  });

  test("download, unpack, one install step, then `monthly-budget` fails the preview over the budget", async () => {
    const releaseUrl = `${release.origin}${releaseDownloadPath(version, "")}`;
    const install = commandLines(recipe("docs/cost.md#policy-pack-install"));
    expect(install[0]).toContain(`${PAGES_RELEASE_URL}rimuhosting-policy-pack-<version>.tar.gz`);
    for (const line of install) {
      const run = await shell(asServed(line, releaseUrl, version), { cwd: project, env, clean: true });
      if (run.code !== 0) throw new Error(`\`${line}\` exited with ${run.code}:\n${run.output}`);
    }
    expect(release.requests).toEqual([
      releaseDownloadPath(version, `rimuhosting-policy-pack-${version}.tar.gz`),
    ]);
    fs.writeFileSync(path.join(project, "policy-config.json"), recipe("docs/cost.md#policy-config"));

    // The page's preview line; the test adds the stack and --non-interactive (no terminal here).
    const [preview] = commandLines(recipe("docs/cost.md#policy-pack-preview"));
    const mark = s.mark();
    const run = await shell(`${preview} --stack ${s.stack.cli.name} --non-interactive`, {
      cwd: project,
      env,
      clean: true,
    });
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/\[mandatory\] +monthly-budget/);
    expect(run.output).toContain(
      "The stack's 3 VPSs would cost $30.00 a month after this change, over the budget of $25.00",
    );
    expect(s.mutationsSince(mark)).toEqual([]);
  });

  // The page's bill lines after it, in order, with the pack installed above: `npx rimuhosting-bill` is the
  // checkout's built command (test/docs/support/npx-stand-in.ts), and the page's stack `prod` is this test's stack
  // (its name has a random suffix: `--stack prod` and the baseline's file name `shop.prod.json` name it).
  test("the bill with the pack's verdict, the event log's bill, and the baseline --compare-to reads", async () => {
    const bin = path.join(s.workDir, "npx-bin");
    writeNpxStandIn(bin);
    const billEnv = { ...env, PATH: `${bin}${path.delimiter}${env.PATH}` };
    const stack = s.stack.cli.name;
    const run = async (line: string) => {
      const served = line
        .replace(/--stack prod\b/g, `--stack ${stack}`)
        .replace("shop.prod.json", `shop.${stack}.json`);
      return { line, ...(await shell(served, { cwd: project, env: billEnv, clean: true })) };
    };
    const outputs: { line: string; code: number | null; output: string; billMd?: string }[] = [];
    for (const address of [
      "docs/cost.md#bill-stack",
      "docs/cost.md#bill-event-log",
      "docs/cost.md#bill-json",
    ])
      for (const line of commandLines(recipe(address))) {
        const result = await run(line);
        const billMd = path.join(project, "bill.md");
        outputs.push({
          ...result,
          billMd: fs.existsSync(billMd) ? fs.readFileSync(billMd, "utf8") : undefined,
        });
      }
    const failed = outputs.filter((o) => o.code !== 0).map((o) => `${o.line}: exit ${o.code}\n${o.output}`);
    // With the pack, its mandatory monthly-budget fails the bill (exit 1), which gives the pack's verdict.
    const withPack = outputs.find((o) => o.line.includes("--policy-pack"))!;
    expect(failed).toEqual([`${withPack.line}: exit 1\n${withPack.output}`]);
    expect(withPack.billMd).toMatch(/Policy pack `rimuhosting-guard` [\d.]+: ❌/);
    expect(withPack.billMd).toContain("`monthly-budget` (mandatory)");
    // The baseline the last line compares with is the one the line before it wrote.
    expect(fs.existsSync(path.join(project, "bills-main", `shop.${stack}.json`))).toBe(true);
    const compared = JSON.parse(outputs[outputs.length - 1]!.output) as {
      comparison: { source: string } | null;
    };
    expect(compared.comparison?.source).toContain(`bills-main/shop.${stack}.json`);
  });
});
