// Go and Python programs using their generated SDKs (sdk/go, sdk/python) on the native plugin, through the real CLI
// against the emulator: up (a data source as a provider function, then the VPS), a resize, and destroy.
import { liveOrders, type Scenario } from "./e2e-support";
import {
  describeNative,
  nativeOps,
  pythonEnv,
  pythonVirtualenv,
  startNativeScenario,
  writeGoProgram,
  writePythonProgram,
} from "./native-programs";

// The Go host builds the program with `go build`: minutes the first time on a cold Go build cache.
jest.setTimeout(900_000);

const GO_PROGRAM = `package main

import (
	"github.com/pulumi-rimuhosting/pulumi-rimuhosting/sdk/go/rimuhosting"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		memoryMb := config.New(ctx, "").GetInt("memoryMb")
		if memoryMb == 0 {
			memoryMb = 1024
		}
		plans, err := rimuhosting.GetPricingPlans(ctx, &rimuhosting.GetPricingPlansArgs{DcLocation: pulumi.StringRef("DCDALLAS")})
		if err != nil {
			return err
		}
		web, err := rimuhosting.NewVps(ctx, "web", &rimuhosting.VpsArgs{
			DomainName:      pulumi.String("go.example.com"),
			DcLocation:      pulumi.String("DCDALLAS"),
			PricingPlanCode: pulumi.String(plans.Plans[0].Code),
			Distro:          pulumi.String("deb12.64"),
			MemoryMb:        pulumi.Int(memoryMb),
		})
		if err != nil {
			return err
		}
		ctx.Export("ip", web.PrimaryIp)
		ctx.Export("orderOid", web.OrderOid)
		ctx.Export("rootPassword", web.Password)
		return nil
	})
}
`;

const PYTHON_PROGRAM = `import pulumi
import pulumi_rimuhosting as rimuhosting

memory_mb = pulumi.Config().get_int("memoryMb") or 1024
plans = rimuhosting.get_pricing_plans(dc_location="DCDALLAS")
web = rimuhosting.Vps(
    "web",
    domain_name="python.example.com",
    dc_location="DCDALLAS",
    pricing_plan_code=plans.plans[0].code,
    distro="deb12.64",
    memory_mb=memory_mb,
)
pulumi.export("ip", web.primary_ip)
pulumi.export("orderOid", web.order_oid)
pulumi.export("rootPassword", web.password)
`;

/** up, a resize, destroy: what each SDK program must get through. */
async function upResizeDestroy(s: Scenario): Promise<void> {
  const created = await s.stack.up();
  expect(nativeOps(created)).toEqual({ web: "create" });
  const oid = created.outputs.orderOid as number;
  expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);
  expect(created.outputs.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  expect(JSON.stringify(created.outputs.rootPassword)).toContain("[secret]");

  await s.stack.setConfig("memoryMb", { value: "2048" });
  const resized = await s.stack.up();
  expect(nativeOps(resized)).toEqual({ web: "update" });
  expect((await s.client.getOrder(oid)).about_order.vps_parameters?.memory_mb).toBe(2048);
  expect(liveOrders(s.emulator).map((o) => o.orderOid)).toEqual([oid]);

  expect(nativeOps(await s.stack.destroy())).toEqual({ web: "delete" });
  expect(liveOrders(s.emulator)).toEqual([]);
}

describeNative("go", "a Go program with the generated Go SDK", () => {
  test("up, resize, destroy", async () => {
    // The program's module cache is the usual one; -mod=mod lets go add the SDK's dependencies it already has.
    const s = await startNativeScenario(writeGoProgram("native-go", GO_PROGRAM), {
      env: { GOFLAGS: "-mod=mod" },
    });
    try {
      await upResizeDestroy(s);
    } finally {
      await s.close();
    }
  });
});

describeNative("python", "a Python program with the generated Python SDK", () => {
  test("up, resize, destroy", async () => {
    const venv = pythonVirtualenv()!;
    const dir = writePythonProgram("native-python", PYTHON_PROGRAM, venv);
    const s = await startNativeScenario(dir, { env: pythonEnv(dir, venv) });
    try {
      await upResizeDestroy(s);
    } finally {
      await s.close();
    }
  });
});
