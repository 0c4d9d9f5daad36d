import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findPulumiCli } from "./cli-stack";

describe("findPulumiCli", () => {
  test("finds an executable pulumi on PATH", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-pulumi-"));
    try {
      fs.writeFileSync(path.join(dir, "pulumi"), "#!/bin/sh\n", { mode: 0o755 });
      expect(findPulumiCli({ PATH: `/nonexistent${path.delimiter}${dir}` })).toEqual({
        path: path.join(dir, "pulumi"),
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("says why when there is none", () => {
    expect(findPulumiCli({ PATH: "/nonexistent" }).reason).toMatch(/no `pulumi` binary on PATH/);
  });
});
