# Quickstart in Python: one VPS on the first VPS plan of a data centre, running Debian 12.
#
#   pulumi config set --secret rimuhosting:apiKey <key>
#   pulumi config set memoryMb 2048    # optional: resizes the VPS in place
#   pulumi up
import pulumi
import pulumi_rimuhosting as rimuhosting

memory_mb = pulumi.Config().get_int("memoryMb") or 1024
plans = rimuhosting.get_pricing_plans(dc_location="DCDALLAS")
web = rimuhosting.Vps(
    "web",
    domain_name="web1.example.com",
    dc_location="DCDALLAS",
    pricing_plan_code=plans.plans[0].code,
    distro="deb12.64",
    memory_mb=memory_mb,
)
pulumi.export("ip", web.primary_ip)
pulumi.export("orderOid", web.order_oid)
pulumi.export("monthlyPriceUsd", web.monthly_fee_usd)
pulumi.export("rootPassword", web.password)
