// Quickstart in Java: one VPS on the first VPS plan of a data centre, running Debian 12.
//
//   pulumi config set --secret rimuhosting:apiKey <key>
//   pulumi config set memoryMb 2048    # optional: resizes the VPS in place
//   pulumi up
package myproject;

import com.pulumi.Pulumi;
import com.pulumi.rimuhosting.RimuhostingFunctions;
import com.pulumi.rimuhosting.Vps;
import com.pulumi.rimuhosting.VpsArgs;
import com.pulumi.rimuhosting.inputs.GetPricingPlansArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var memoryMb = ctx.config().getInteger("memoryMb").orElse(1024);
            var plans = RimuhostingFunctions.getPricingPlans(GetPricingPlansArgs.builder()
                .dcLocation("DCDALLAS")
                .build());
            var web = new Vps("web", VpsArgs.builder()
                .domainName("web1.example.com")
                .dcLocation("DCDALLAS")
                .pricingPlanCode(plans.applyValue(p -> p.plans().get(0).code()))
                .distro("deb12.64")
                .memoryMb(memoryMb)
                .build());
            ctx.export("ip", web.primaryIp());
            ctx.export("orderOid", web.orderOid());
            ctx.export("monthlyPriceUsd", web.monthlyFeeUsd());
            ctx.export("rootPassword", web.password());
        });
    }
}
