import { createOpsPrinter } from "./ops-printer";
import { UNKNOWN, wrapSecret } from "./property-values";
import type { StepRecord } from "./steps";

const step = (op: StepRecord["op"], extra: Partial<StepRecord> = {}): StepRecord => ({
  op,
  urn: "urn:pulumi:dev::quickstart::pulumi-nodejs:dynamic/rimuhosting:Vps::web",
  type: "pulumi-nodejs:dynamic/rimuhosting:Vps",
  name: "web",
  ...extra,
});

describe("ops printer", () => {
  test("prints steps, outputs and the summary the way pulumi does", () => {
    const lines: string[] = [];
    let now = 0;
    const p = createOpsPrinter((l) => lines.push(l), { progressEveryMs: 0, now: () => now });
    p.header("up", "dev");
    const end = p.stepStarted(step("create"), false);
    now = 3000;
    end(step("create"));
    p.stepStarted(
      step("replace", { keys: ["domainName"], deleteBeforeReplace: true }),
      false,
    )(step("replace", { keys: ["domainName"], deleteBeforeReplace: true }));
    p.outputs({ ip: "192.0.2.10", password: wrapSecret("pw"), later: UNKNOWN }, false);
    p.summary([step("create"), step("replace"), step("same")], false, 4000);
    const text = lines.join("\n");
    expect(text).toContain("Updating (dev):");
    expect(text).toContain(" +  pulumi-nodejs:dynamic/rimuhosting:Vps web creating (0s)");
    expect(text).toContain(" +  pulumi-nodejs:dynamic/rimuhosting:Vps web created (3s)");
    expect(text).toContain(
      " +- pulumi-nodejs:dynamic/rimuhosting:Vps web replaced (0s) [diff: ~domainName, delete before replace]",
    );
    expect(text).toContain('    ip      : "192.0.2.10"');
    expect(text).toContain("    password: [secret]");
    expect(text).not.toContain('pw"');
    expect(text).toContain("    later   : [unknown]");
    expect(text).toMatch(/Resources:\n {4}\+ 1 created\n {4}\+- 1 replaced\n {4}1 unchanged/);
  });

  test("previews say what would happen", () => {
    const lines: string[] = [];
    const p = createOpsPrinter((l) => lines.push(l), { progressEveryMs: 0 });
    p.header("preview", "dev");
    p.stepStarted(step("update", { keys: ["memoryMb"] }), true)(step("update", { keys: ["memoryMb"] }));
    p.summary([step("update")], true, 1000);
    expect(lines).toContain("Previewing update (dev):");
    expect(lines).toContain(" ~  pulumi-nodejs:dynamic/rimuhosting:Vps web update [diff: ~memoryMb]");
    expect(lines).toContain("    ~ 1 to update");
  });
});
