/**
 * The stack a creationScope names, and a file backend's directory (provider/impl/ownership/stack-scope.ts).
 */
import * as os from "node:os";
import * as path from "node:path";
import { fileBackendDir, stackOfScope } from "../../../provider/impl/ownership/stack-scope";

describe("a stack's scope and its file backend", () => {
  it("finds a file backend's directory as the CLI does; any other backend has none", () => {
    expect(fileBackendDir("file:///srv/state", "/work")).toBe("/srv/state");
    expect(fileBackendDir("file://~", "/work")).toBe(os.homedir());
    expect(fileBackendDir("file://~/state", "/work")).toBe(path.join(os.homedir(), "state"));
    expect(fileBackendDir("file://state?no_tmp_dir=true", "/work")).toBe("/work/state");
    expect(fileBackendDir("https://api.pulumi.com", "/work")).toBeUndefined();
    expect(fileBackendDir("s3://bucket", "/work")).toBeUndefined();
  });

  it("names the stack of a creationScope, or none", () => {
    expect(stackOfScope("shop/prod/web-0")).toEqual({ project: "shop", stack: "prod" });
    expect(stackOfScope("shop/prod")).toBeUndefined();
    expect(stackOfScope(undefined)).toBeUndefined();
  });
});
