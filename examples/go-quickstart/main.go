// Quickstart in Go: one VPS on the first VPS plan of a data centre, running Debian 12.
//
//	pulumi config set --secret rimuhosting:apiKey <key>
//	pulumi config set memoryMb 2048    # optional: resizes the VPS in place
//	pulumi up
package main

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
			DomainName:      pulumi.String("web1.example.com"),
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
		ctx.Export("monthlyPriceUsd", web.MonthlyFeeUsd)
		ctx.Export("rootPassword", web.Password)
		return nil
	})
}
