import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { findPulumiCli } from "./cli-stack";
import { readPulumiProject } from "./project-file";

const REPO = path.resolve(__dirname, "..", "..");

describe("readPulumiProject", () => {
  test("the root Pulumi.yaml runs the quickstart with the example directory as working directory", () => {
    const p = readPulumiProject(REPO);
    expect(p).toMatchObject({ name: "quickstart", runtime: "nodejs", rootDir: REPO, program: "." });
    expect(p.pwd).toBe(path.join(REPO, "examples", "quickstart"));
  });

  test.each(["quickstart", "fleet", "lifecycle"])(
    "examples/%s is a nodejs project run from its own directory",
    (ex) => {
      const dir = path.join(REPO, "examples", ex);
      expect(readPulumiProject(dir)).toMatchObject({ name: ex, pwd: dir, program: "." });
    },
  );

  test("a missing Pulumi.yaml is reported with its path", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "no-project-"));
    try {
      expect(() => readPulumiProject(dir)).toThrow(path.join(dir, "Pulumi.yaml"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

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
