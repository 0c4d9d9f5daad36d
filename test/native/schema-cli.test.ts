// provider/native/schema.json checked by Pulumi's own `pulumi schema check` (a child process: the real CLI, so
// test/helpers/needs-processes.js lists this file among those that start processes).
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { describeCliOnly } from "../engine/describe-cli";

const FILE = path.resolve(__dirname, "../../provider/native/schema.json");

describeCliOnly("the native provider's schema, checked by Pulumi", () => {
  it("passes `pulumi schema check`", () => {
    const run = spawnSync("pulumi", ["schema", "check", FILE], { encoding: "utf8" });
    expect(`${run.stdout}${run.stderr}`).toBe("");
    expect(run.status).toBe(0);
  });
});
