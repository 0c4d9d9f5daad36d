/**
 * The Vps class under pulumi.runtime.setMocks: type token, serialized provider in `__provider`
 * (plain, not secret), seeded outputs, Vps.get and isInstance.
 */
import * as pulumi from "@pulumi/pulumi";

const registered: pulumi.runtime.MockResourceArgs[] = [];

// setMocks returns a promise: the tests start once the mocks are in place.
beforeAll(async () => {
  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push(args);
        const id = args.id || "4242";
        return {
          id,
          state: { ...args.inputs, orderOid: Number(id), primaryIp: "192.0.2.9", password: "generated" },
        };
      },
      call(args) {
        return args.inputs;
      },
    },
    "rimuhosting-mocks",
    "dev",
    false,
  );
});

// Imported after setMocks, as Pulumi's docs prescribe.
import { Vps } from "../../provider/index";

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

describe("Vps (mocks)", () => {
  it("registers pulumi-nodejs:dynamic/rimuhosting:Vps with the package's provider text as a plain __provider", async () => {
    const vps = new Vps("web", {
      domainName: "web1.example.com",
      memoryMb: 1024,
      password: pulumi.secret("pw-123456"),
    });
    expect(await valueOf(vps.orderOid)).toBe(4242);
    expect(await valueOf(vps.primaryIp)).toBe("192.0.2.9");
    expect(Vps.isInstance(vps)).toBe(true);
    expect(Vps.isInstance({})).toBe(false);
    const args = registered.find((r) => r.name === "web");
    expect(args?.type).toBe("pulumi-nodejs:dynamic/rimuhosting:Vps");
    expect(Vps.__pulumiType).toBe(args?.type);
    const provider = args?.inputs.__provider;
    expect(provider).toBe('exports.handler = () => require("pulumi-rimuhosting/shim");\n'); // a plain string

    expect(provider).not.toContain("pw-123456");
    expect(args?.inputs).toMatchObject({ domainName: "web1.example.com", memoryMb: 1024 });
    // Set by the class, never by the user: the seed of the order's creation token (project/stack/name).
    expect(args?.inputs.creationScope).toBe("rimuhosting-mocks/dev/web");
  });

  it("overwrites a user-set creationScope with project/stack/name", async () => {
    const api = new Vps("api", { domainName: "api.example.com", creationScope: "mine/mine/mine" });
    await valueOf(api.orderOid); // registration has happened once an output resolves
    const args = registered.find((r) => r.name === "api");
    expect(args?.inputs.creationScope).toBe("rimuhosting-mocks/dev/api");
  });

  it("Vps.get reads an existing order by id without creating one", async () => {
    const existing = Vps.get("existing", "777");
    expect(await valueOf(existing.orderOid)).toBe(777);
    const args = registered.find((r) => r.name === "existing");
    expect(args?.id).toBe("777");
  });
});
