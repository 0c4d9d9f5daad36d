// A failing data source, as the real `pulumi` CLI shows it: one message that names the data source and the argument
// (not the API's wire field), says what to do (fix it, or run again when the failure is temporary), and carries no JS
// stack, no ANSI colour codes and no duplicate. Without the clean error (provider/data-sources/errors.ts) Pulumi's
// Node.js runtime prints about twenty coloured lines of stack, error fields and cause chain.
//
// Through the CLI: a failure after a request (a wrong key) and before one, in the promise form and the Output form;
// what each kind of failure says is test/provider/data-sources.test.ts's ("a failing data source"), in-process.
//
// A failing data source also fails fast: the error the SDK's handler inspects carries no stack (in the Output forms one
// frame made Node 20's coloured inspection run 44 s and take 3.6 GB, provider/data-sources/errors.ts), and a data source
// that fails before any request prints no Node warning before its line.
//
// Real CLI only (skipped, with the reason in its name, without one): the message under test is what the CLI and the
// SDK's program runner print.
import * as fs from "node:fs";
import * as path from "node:path";
import { describeCliOnly } from "./describe-cli";
import { DEMO_API_KEY } from "../../emulator/index";
import { startScenario, type Scenario } from "./e2e-support";

jest.setTimeout(120_000);

const WRONG_KEY = "wrong-key-0b5e7d1c";

describeCliOnly("a failing data source", () => {
  let s: Scenario;

  beforeAll(async () => {
    s = await startScenario("data-source-failure", {
      programDir: path.join(__dirname, "fixtures", "data-source-failure"),
    });
  });
  afterAll(async () => s?.close());

  /** `pulumi up` of the fixture with `dataSource` (and `plan`); resolves to the CLI's whole output. It must fail. */
  async function failingUp(config: Record<string, string>): Promise<string> {
    await s.stack.setConfigs(config);
    const failed = await s.stack.cli!.command("up", "--yes", "--skip-preview").then(
      (stdout) => ({ stdout, stderr: "", ok: true }),
      (e: { stdout?: string; stderr?: string }) => ({
        stdout: e.stdout ?? "",
        stderr: e.stderr ?? "",
        ok: false,
      }),
    );
    expect(failed.ok).toBe(false);
    return `${failed.stdout}\n${failed.stderr}`;
  }

  /** The lines of the CLI's Diagnostics section (what it prints once per error, after the progress). */
  function diagnostics(output: string): string[] {
    const section = output.split("Diagnostics:")[1] ?? "";
    return section
      .split(/\n(?:Outputs|Resources):/)[0]!
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("pulumi:pulumi:Stack"));
  }

  function expectOneCleanMessage(output: string): string {
    expect(output).not.toContain("\u001b["); // no ANSI escape
    expect(output).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m); // no JS stack frame
    expect(output).not.toContain("unhandled exception");
    expect(output).not.toContain("[cause]");
    expect(output).not.toContain("Warning:"); // e.g. Node's PromiseRejectionHandledWarning
    expect(output).not.toMatch(/\(node:\d+\)/);
    const lines = diagnostics(output);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: \[RIMU_ERR_[A-Z_]+\] /);
    return lines[0]!;
  }

  test("a wrong API key: names the data source and the setting; fix the key, not run again", async () => {
    await s.stack.setConfig("rimuhosting:apiKey", { value: WRONG_KEY, secret: true });
    let wrong: string;
    try {
      wrong = await failingUp({ dataSource: "getOrders" });
    } finally {
      await s.stack.setConfig("rimuhosting:apiKey", { value: DEMO_API_KEY, secret: true });
    }
    const message = expectOneCleanMessage(wrong);
    expect(message).toMatch(/^error: \[RIMU_ERR_AUTH\] getOrders: /);
    expect(message).toContain("pulumi config set --secret rimuhosting:apiKey");
    expect(message).toContain("Running again with the same key fails the same way.");
    expect(wrong).not.toContain(WRONG_KEY);
  });

  test("an unknown plan through the Output form: one line, and the error the SDK inspects is small, without a stack", async () => {
    const report = path.join(s.workDir, "error-report.jsonl");
    await s.stack.setConfig("errorReport", report);
    let output: string;
    try {
      output = await failingUp({ dataSource: "getPriceQuoteOutput", plan: "NOPE1" });
    } finally {
      await s.stack.removeConfig("errorReport");
    }
    expect(expectOneCleanMessage(output)).toMatch(
      /^error: \[RIMU_ERR_VALIDATION\] getPriceQuote: pricingPlanCode /,
    );
    // What the SDK's uncaught-error handler inspects (once per promise of the chain): the message, the fields and the
    // cause's one line. With the cause's stack it was about 1,800 characters and 9 frames, one of which Node 20's
    // coloured inspection cannot format.
    const inspected = fs
      .readFileSync(report, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { inspectedChars: number; frames: number });
    expect(inspected.length).toBeGreaterThan(0);
    for (const error of inspected) {
      expect(error.frames).toBe(0);
      expect(error.inspectedChars).toBeLessThanOrEqual(1_500);
    }
  });

  // A failure before any request, once in each form (the promise's and the Output's): these two and the Output form's
  // unknown plan above cover the SDK's two ways of reporting it; the messages of every kind (a refused argument, a
  // missing key, a bad orderOid, the service unavailable) are test/provider/data-sources.test.ts's, in-process.
  test.each(["getOrders"])(
    "no API key (%s): the one line, and no Node warning before it",
    async (dataSource) => {
      await s.stack.removeConfig("rimuhosting:apiKey");
      let output: string;
      try {
        output = await failingUp({ dataSource });
      } finally {
        await s.stack.setConfig("rimuhosting:apiKey", { value: DEMO_API_KEY, secret: true });
      }
      expect(output).not.toContain("PromiseRejectionHandledWarning");
      expect(expectOneCleanMessage(output)).toMatch(
        /^error: \[RIMU_ERR_CONFIG\] getOrders needs a RimuHosting API key/,
      );
    },
  );

  test.each(["getOrderOutput"])(
    "orderOid 12.5 (%s): the one line, and no Node warning before it",
    async (dataSource) => {
      const output = await failingUp({ dataSource, orderOid: "12.5" });
      expect(output).not.toContain("PromiseRejectionHandledWarning");
      expect(expectOneCleanMessage(output)).toMatch(
        /^error: \[RIMU_ERR_INVALID_INPUT\] getOrder: orderOid must be an order oid .*not 12\.5/,
      );
    },
  );
});
