/**
 * What the provider quotes of a failed `pulumi` read of the backend (provider/impl/ownership/backend-states.ts): the
 * CLI's error, with every URL in it masked (engine/backend-cli.ts), since the CLI's errors about a self-managed
 * backend quote its URL, password and all. A stand-in `pulumi` on PATH fails as the CLI does.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readBackendStates } from "../../../provider/impl/ownership/backend-states";

test("a failed read quotes the CLI's error with the backend URL's password masked", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "states-"));
  try {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: shop\nruntime: yaml\n");
    fs.writeFileSync(
      path.join(dir, "pulumi"),
      "#!/bin/sh\n" +
        "echo 'error: could not open \"postgres://rimu:s3cret@127.0.0.1:1/state?password=s3cret\": refused' >&2\n" +
        "exit 1\n",
      { mode: 0o755 },
    );
    const states = await readBackendStates({ cwd: dir, env: { PATH: dir } });
    expect(states.unread).toContain('"postgres://rimu:***@127.0.0.1:1/state?password=***": refused');
    expect(states.unread).not.toContain("s3cret");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
