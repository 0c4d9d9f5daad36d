/**
 * The stack identity (provider/impl/ownership/stack-identity.ts): what its mark hashes and what it leaves out. Two
 * stacks of the same project and stack names differ by backend or by the key material `pulumi stack init` made; a
 * credential in the backend's URL never changes the mark, nor reaches it. Read through the real CLI on file backends:
 * test/engine/stack-identity.test.ts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { backendUrlWithoutCredentials } from "../../../provider/impl/engine/backend-cli";
import {
  identityOfParts,
  readStackIdentity,
  stackIdentityMark,
} from "../../../provider/impl/ownership/stack-identity";

/** The backend URL as the identity hashes it. */
const backendWithoutCredentials = (url: string, cwd: string): string =>
  backendUrlWithoutCredentials(url, { drop: { cwd } });

const parts = {
  backendUrl: "file:///srv/a",
  project: "shop",
  stack: "dev",
  instance: "v1:salt-a",
  stackTag: "0f1e2d3c",
};

describe("the stack identity", () => {
  it("differs by backend, by project, by stack, by the stack instance's key material and by its own tag", () => {
    const mark = stackIdentityMark(parts);
    expect(mark).toMatch(/^id2-[0-9a-f]{32}$/);
    expect(stackIdentityMark({ ...parts })).toBe(mark);
    for (const other of [
      { backendUrl: "file:///srv/b" },
      { project: "shop2" },
      { stack: "prod" },
      { instance: "v1:salt-b" },
      { instance: undefined },
      // A committed Pulumi.dev.yaml gives two backends at one path the same salt: the stack's own tag differs.
      { stackTag: "4b5a6978" },
    ])
      expect(stackIdentityMark({ ...parts, ...other })).not.toBe(mark);
  });

  it.each([
    ["postgres://alice:s3cret@db.example.com:5432/pulumi", "postgres://db.example.com:5432/pulumi"],
    [
      "postgres://db.example.com/pulumi?password=s3cret&table=st",
      "postgres://db.example.com/pulumi?table=st",
    ],
    [
      "s3://state?endpoint=127.0.0.1:9000&disableSSL=true&secretKey=s3cret",
      "s3://state?endpoint=127.0.0.1%3A9000&disableSSL=true",
    ],
    // One list for messages and the hash (backend-cli.ts): `auth…` and `cred…` go from both.
    ["s3://state?region=x&authorization=s3cret&creds=s3cret", "s3://state?region=x"],
    ["https://api.pulumi.com", "https://api.pulumi.com/"],
  ])("%s is hashed as %s: no credential", (url, stripped) => {
    expect(backendWithoutCredentials(url, "/work")).toBe(stripped);
    expect(backendWithoutCredentials(url, "/work")).not.toContain("s3cret");
  });

  it("is none without the stack instance's key material (Pulumi Cloud's own key): no mark proves anything", () => {
    // alice/shop/dev and bob/shop/dev on Pulumi Cloud: whoami's URL names no organization, and there is no salt.
    const cloud = {
      backendUrl: "https://api.pulumi.com/",
      project: "shop",
      stack: "dev",
      instance: undefined,
      stackTag: "0f1e2d3c",
    };
    const read = identityOfParts(cloud, "/work/Pulumi.dev.yaml");
    expect(read).toEqual({
      none: true,
      unread: expect.stringContaining("pulumi stack change-secrets-provider passphrase"),
    });
    expect(identityOfParts(parts, "/work/Pulumi.dev.yaml")).toEqual({ mark: stackIdentityMark(parts) });
  });

  it("a file backend's path is resolved: two users' file://~ are two backends", () => {
    expect(backendWithoutCredentials("file://~", "/work")).toBe(`file://${os.homedir()}`);
    expect(backendWithoutCredentials("file://state", "/work/app")).toBe("file:///work/app/state");
    expect(backendWithoutCredentials("file:///srv/state", "/work")).toBe("file:///srv/state");
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
