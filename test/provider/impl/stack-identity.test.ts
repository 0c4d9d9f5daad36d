/**
 * The stack identity (provider/impl/ownership/stack-identity.ts): what its mark hashes (the project, the stack and the
 * stack's own tag, as the backend holds them) and what it leaves out (the backend URL's spelling, the working
 * directory's settings file). Read through the real CLI on file backends: test/engine/stack-identity.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readStackIdentity, stackIdentityMark } from "../../../provider/impl/ownership/stack-identity";

const parts = { project: "shop", stack: "dev", stackTag: "0f1e2d3c" };

/**
 * A project directory whose settings file holds `salt`, with a stand-in `pulumi` that answers only
 * `pulumi stack tag ls --json` (the stack's tag) and fails on anything else (a URL or a state read would fail it).
 */
function project(salt: string): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "identity-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
  fs.writeFileSync(path.join(dir, "Pulumi.dev.yaml"), `encryptionsalt: ${salt}\n`);
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, "pulumi"),
    '#!/bin/sh\nif [ "$1 $2 $3" = "stack tag ls" ]; then echo \'{"rimuhosting:instance": "0f1e2d3c"}\'; exit 0; fi\n' +
      'echo "not asked: $*" >&2; exit 1\n',
    { mode: 0o755 },
  );
  return { dir, env: { PATH: `${bin}:/usr/bin:/bin` } };
}

describe("the stack identity", () => {
  it("differs by project, by stack and by the stack's own tag", () => {
    const mark = stackIdentityMark(parts);
    expect(mark).toMatch(/^id3-[0-9a-f]{32}$/);
    expect(stackIdentityMark({ ...parts })).toBe(mark);
    for (const other of [{ project: "shop2" }, { stack: "prod" }, { stackTag: "4b5a6978" }])
      expect(stackIdentityMark({ ...parts, ...other })).not.toBe(mark);
  });

  it("is the backend's alone: two copies of the project (two salts), two spellings of the backend's URL, one mark", async () => {
    const mine = project("v1:salt-a");
    const theirs = project("v1:salt-b");
    try {
      const reads = await Promise.all([
        readStackIdentity(
          { project: "shop", stack: "dev" },
          { cwd: mine.dir, env: { ...mine.env, PULUMI_BACKEND_URL: "file://~" } },
        ),
        readStackIdentity(
          { project: "shop", stack: "dev" },
          { cwd: theirs.dir, env: { ...theirs.env, PULUMI_BACKEND_URL: `file://${os.homedir()}/` } },
        ),
      ]);
      expect(reads).toEqual([{ mark: stackIdentityMark(parts) }, { mark: stackIdentityMark(parts) }]);
    } finally {
      for (const { dir } of [mine, theirs]) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("outside a Pulumi project it is unread, and nothing is run", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "identity-"));
    try {
      const read = await readStackIdentity(
        { project: "shop", stack: "dev" },
        { cwd: dir, env: { PATH: "" } },
      );
      expect(read).toEqual({ unread: "there is no Pulumi project (Pulumi.yaml) here" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
