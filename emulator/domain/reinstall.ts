/**
 * R10 PUT .../vps/reinstall: re-images the VPS. The distro and password are replaced, the disk is
 * wiped (used disk back to the image size), the IP is kept; null sizes and a null dc_location keep
 * the current values (docs/rimuhosting-api.md R10). A different data centre means a new host there, and so a new IP.
 */
import type { NewVpsRequest } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { DEFAULT_DISTRO } from "../catalog/distributions.js";
import { hostName } from "../catalog/hosts.js";
import { vpsMonthlyFeeUsd } from "../catalog/pricing.js";
import { emuError } from "../errors.js";
import type { Outcome } from "./outcome.js";
import { allocateIps, chooseHost, findHost, requireHostFits, totalDiskMb } from "./capacity.js";
import type { EmulatorContext } from "./context.js";
import { resolveControlPanel } from "./create-source.js";
import { DURATIONS_MS } from "./durations.js";
import { changeOwnOrder, requireVpsToChange } from "./lookup.js";
import { generatePassword } from "./password.js";
import { injectedAuthorizedKeys } from "./injected-files.js";
import { toAboutOrder, toRunningVpsInfo } from "../wire/records.js";
import {
  MIN_DISK_MB,
  MIN_MEMORY_MB,
  requireDistribution,
  requireEnabledDataCenter,
  requireFqdn,
  requireSize,
  requireVpsPlan,
} from "./validate.js";

export async function reinstallVps(
  ctx: EmulatorContext,
  account: DemoAccount,
  orderOid: number,
  req: NewVpsRequest,
): Promise<Outcome<"reinstallVps">> {
  const { store, clock } = ctx;
  return changeOwnOrder(ctx, account.name, orderOid, requireVpsToChange, async (order) => {
    if (req.instantiation_via_clone_options) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: "instantiation_via_clone_options",
        message: "A reinstall cannot clone another VPS; give instantiation_options instead.",
      });
    }
    const inst = req.instantiation_options;
    const domainName = inst?.domain_name
      ? requireFqdn(inst.domain_name, "instantiation_options.domain_name")
      : order.domainName;
    const distro = requireDistribution(
      inst?.distro ?? order.distro ?? DEFAULT_DISTRO,
      "instantiation_options.distro",
    );
    const plan = req.pricing_plan_code
      ? requireVpsPlan(req.pricing_plan_code, "pricing_plan_code")
      : undefined;
    const dc = requireEnabledDataCenter(req.dc_location ?? order.dc, "dc_location");
    const vp = req.vps_parameters;
    // The disk is wiped, so unlike a resize a reinstall may make it smaller.
    const sizes = {
      memoryMb: requireSize(vp?.memory_mb ?? order.memoryMb, MIN_MEMORY_MB, "vps_parameters.memory_mb"),
      diskMb: requireSize(vp?.disk_space_mb ?? order.diskMb, MIN_DISK_MB, "vps_parameters.disk_space_mb"),
      disk2Mb: requireSize(vp?.disk_space_2_mb ?? order.disk2Mb, 0, "vps_parameters.disk_space_2_mb"),
      disk3Mb: requireSize(vp?.disk_space_3_mb ?? order.disk3Mb, 0, "vps_parameters.disk_space_3_mb"),
    };
    // Validated like a create (only webmin installs), but null here means "none", not "the default".
    const controlPanel =
      inst?.control_panel === undefined
        ? order.controlPanel
        : inst.control_panel === null
          ? null
          : resolveControlPanel(inst.control_panel);
    const need = { memoryMb: sizes.memoryMb, diskMb: totalDiskMb(sizes), ips: 1 + order.secondaryIps.length };
    const messages: string[] = [];
    if (dc.code !== order.dc) {
      const host = chooseHost(store, dc.code, need, { exclude: order });
      const [primary, ...secondary] = allocateIps(store, host, need.ips);
      order.hostOid = host.oid;
      order.primaryIp = primary ?? null;
      order.secondaryIps = secondary;
      order.ptr = {};
      order.dc = dc.code;
      messages.push(
        `Moved to ${hostName(host.oid)} in ${dc.name}; the new IP address is ${order.primaryIp}.`,
      );
    } else {
      const host = order.hostOid ? findHost(store, order.hostOid) : undefined;
      if (host) requireHostFits(store, host, need, order);
    }
    const password = inst?.password || generatePassword(store.random);
    Object.assign(order, sizes);
    order.domainName = domainName;
    order.distro = distro.code;
    order.usedDiskMb = distro.imageMb;
    if (plan) order.planCode = plan.code;
    order.controlPanel = controlPanel;
    order.rootAuthorizedKeys = injectedAuthorizedKeys(req.file_injection_data);
    order.monthlyFeeUsd = vpsMonthlyFeeUsd(order, dc);
    order.runningState = "NOTRUNNING";
    order.startedAtMs = null;
    store.changed(order);
    messages.push(`Reinstalling ${domainName} with ${distro.description}.`, "The old disk image was wiped.");
    await clock.work(DURATIONS_MS.reinstall, order.orderOid);
    order.runningState = "RUNNING";
    order.startedAtMs = clock.now();
    store.changed(order);
    messages.push(`${domainName} is running with IP ${order.primaryIp} and pinging OK.`);
    const echo: NewVpsRequest = {
      ...req,
      instantiation_options: {
        ...inst,
        domain_name: domainName,
        distro: distro.code,
        password,
        control_panel: order.controlPanel ?? "",
      },
      pricing_plan_code: order.planCode,
      dc_location: dc.code,
      vps_parameters: {
        memory_mb: order.memoryMb,
        disk_space_mb: order.diskMb,
        disk_space_2_mb: order.disk2Mb,
        disk_space_3_mb: order.disk3Mb,
      },
      billing_oid: order.billingOid,
    };
    const now = clock.now();
    return {
      message: `${domainName} was reinstalled.`,
      about_order: toAboutOrder(order),
      new_order_request: echo,
      running_vps_info: toRunningVpsInfo(order, now),
      setup_messages: messages,
    };
  });
}
