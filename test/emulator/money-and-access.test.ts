/**
 * The emulator's billing agrees with its quotes to the cent (create, resize), a delete states its credit,
 * injected authorized_keys are kept per install, and PTR names are kept but reported by no GET.
 */
import type {
  DeleteServerResponse,
  GetNewVmPricingResponse,
  PutRunningVpsDataResponse,
} from "../../contract/index.js";
import { useEmulator } from "../helpers/use-emulator.js";
import { createVps, getOrder, orderPath, record } from "./fixtures.js";

const KEYS = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA me@laptop\n";

describe("billing agrees with quotes", () => {
  const emu = useEmulator();

  async function quote(request: Record<string, unknown>): Promise<number> {
    const res = await emu().api("PUT", "/pricing-plans/new-vm-pricing", { new_order_request: request });
    expect(res.status).toBe(200);
    return record<GetNewVmPricingResponse>(res.body).monthly_recurring_amt!.amt;
  }

  test.each(["DCDALLAS", "DCLONDON", "DCAUCKLAND"])("create in %s is billed what was quoted", async (dc) => {
    const sizes = { memory_mb: 1536, disk_space_mb: 12288, disk_space_2_mb: 2048 };
    const quoted = await quote({ dc_location: dc, vps_parameters: sizes });
    const created = await createVps(
      emu(),
      { dc_location: dc, vps_parameters: sizes },
      { domain: "bill.example.com" },
    );
    expect(created.about_order.billing_info?.monthly_recurring_fee).toBe(quoted);
  });

  test("a resize reports the fee before and after, the after being the quote of the new sizes", async () => {
    const sizes = { memory_mb: 1024, disk_space_mb: 20480 };
    const order = (await createVps(emu(), { vps_parameters: sizes }, { domain: "resize.example.com" }))
      .about_order;
    const before = order.billing_info!.monthly_recurring_fee;
    const quoted = await quote({ dc_location: "DCDALLAS", vps_parameters: { ...sizes, memory_mb: 2048 } });
    const res = await emu().api("PUT", orderPath(order, "/vps/parameters"), {
      running_vps_data: { memory_mb: 2048 },
    });
    const result = record<PutRunningVpsDataResponse>(res.body).resource_change_result;
    expect(result.original_pricing).toEqual({ amt: before, cur: "CUR_USD" });
    expect(result.new_pricing).toEqual({ amt: quoted, cur: "CUR_USD" });
    expect((await getOrder(emu(), order.order_oid)).billing_info?.monthly_recurring_fee).toBe(quoted);
  });

  test("a delete states the credit for unused time in cancel_messages", async () => {
    const order = (await createVps(emu(), {}, { domain: "credit.example.com" })).about_order;
    const res = await emu().api("DELETE", orderPath(order, "/vps"));
    const messages = record<DeleteServerResponse>(res.body).cancel_messages ?? [];
    const credit = messages.map((m) => /^A \$(\d+\.\d\d) credit has been added/.exec(m)?.[1]).find(Boolean);
    expect(Number(credit)).toBeGreaterThan(0);
    expect(Number(credit)).toBeLessThanOrEqual(order.billing_info!.monthly_recurring_fee!);
  });
});

describe("installed access", () => {
  const emu = useEmulator();
  const snapshotOf = (oid: number) =>
    emu()
      .snapshot()
      .find((o) => o.orderOid === oid)!;

  test("root's authorized_keys is what the last install injected", async () => {
    const order = (
      await createVps(
        emu(),
        { file_injection_data: [{ path: "/root/.ssh/authorized_keys", data_as_string: KEYS }] },
        { domain: "keys.example.com" },
      )
    ).about_order;
    expect(snapshotOf(order.order_oid).rootAuthorizedKeys).toBe(KEYS);
    const reinstall = (files: unknown) =>
      emu().api("PUT", orderPath(order, "/vps/reinstall"), {
        new_order_request: { instantiation_options: { distro: "deb12.64" }, file_injection_data: files },
      });
    expect(
      (await reinstall([{ path: "/root/.ssh/authorized_keys", data_as_string: "other\n" }])).status,
    ).toBe(200);
    expect(snapshotOf(order.order_oid).rootAuthorizedKeys).toBe("other\n");
    expect((await reinstall(null)).status).toBe(200);
    expect(snapshotOf(order.order_oid).rootAuthorizedKeys).toBeNull();
  });

  test("a PTR name is kept per address, and no GET of the order reports it", async () => {
    const order = (await createVps(emu(), {}, { domain: "ptr3.example.com" })).about_order;
    const ip = order.allocated_ips!.primary_ip!;
    const res = await emu().api("PUT", orderPath(order, `/ptr;ip=${ip}`), undefined, {
      contentType: "application/x-www-form-urlencoded",
      raw: "domain_name=mail.reverse.example.com",
    });
    expect(res.status).toBe(200);
    expect(snapshotOf(order.order_oid).ptr).toEqual({ [ip]: "mail.reverse.example.com" });
    const read = await emu().api("GET", orderPath(order));
    expect(read.text).not.toContain("mail.reverse.example.com");
  });
});
