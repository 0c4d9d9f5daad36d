/**
 * How a create request (R4) names what to install and where: a fresh install or a clone, the control
 * panel, and the data centre (or a forced host). Each step validates and names the field at fault.
 */
import type { NewVpsRequest } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { DEFAULT_DC, type DataCenter } from "../catalog/data-centers.js";
import { DEFAULT_DISTRO, type Distribution } from "../catalog/distributions.js";
import { emuError } from "../errors.js";
import type { HostState, OrderState } from "../state/schema.js";
import { findHost } from "./capacity.js";
import type { EmulatorContext } from "./context.js";
import { getOwnOrder, requireVpsToChange } from "./lookup.js";
import { requireDistribution, requireEnabledDataCenter, requireFqdn } from "./validate.js";

export interface Source {
  domainName: string;
  distro: Distribution;
  usedDiskMb: number;
  clonedFrom?: OrderState;
}

export function resolveSource(
  ctx: EmulatorContext,
  account: DemoAccount,
  req: NewVpsRequest,
  messages: string[],
): Source {
  const inst = req.instantiation_options;
  const cloneOid = req.instantiation_via_clone_options?.vps_order_oid_to_clone ?? req.vps_order_oid_to_clone;
  if (cloneOid !== undefined && cloneOid !== null) {
    if (inst?.domain_name || inst?.distro) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: "instantiation_via_clone_options",
        message:
          "Give either instantiation_options (a fresh install) or instantiation_via_clone_options (a clone), not both.",
      });
    }
    const fieldName = "instantiation_via_clone_options.vps_order_oid_to_clone";
    let source: OrderState;
    try {
      source = getOwnOrder(ctx, account.name, cloneOid);
      requireVpsToChange(source);
    } catch {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName,
        message: `${fieldName} ${cloneOid} is not an active VPS on your account.`,
      });
    }
    const cloneDomain = req.instantiation_via_clone_options?.domain_name;
    const domainName = cloneDomain
      ? requireFqdn(cloneDomain, "instantiation_via_clone_options.domain_name")
      : source.domainName;
    messages.push(
      `Cloning ${source.domainName} (order ${source.orderOid}); it is paused briefly for the snapshot.`,
    );
    return {
      domainName,
      distro: requireDistribution(source.distro ?? DEFAULT_DISTRO, "instantiation_options.distro"),
      usedDiskMb: source.usedDiskMb,
      clonedFrom: source,
    };
  }
  if (!inst?.domain_name) {
    throw emuError("EMU_ERR_MISSING_DOMAIN", { fieldName: "instantiation_options.domain_name" });
  }
  const domainName = requireFqdn(inst.domain_name, "instantiation_options.domain_name");
  if (!inst.distro) messages.push(`'distro' not provided, setting to ${DEFAULT_DISTRO}.`);
  const distro = requireDistribution(inst.distro ?? DEFAULT_DISTRO, "instantiation_options.distro");
  return { domainName, distro, usedDiskMb: distro.imageMb };
}

export function resolveControlPanel(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return "webmin";
  if (value === "" || value.toLowerCase() === "none") return null;
  if (value.toLowerCase() === "webmin") return "webmin";
  throw emuError("EMU_ERR_VALIDATION", {
    fieldName: "instantiation_options.control_panel",
    message: `instantiation_options.control_panel '${value}' is not installable; use "webmin" or "" for none.`,
  });
}

export function resolveDataCenter(
  ctx: EmulatorContext,
  req: NewVpsRequest,
): { dc: DataCenter; host?: HostState } {
  if (req.host_server_oid) {
    const host = findHost(ctx.store, req.host_server_oid);
    if (!host) {
      throw emuError("EMU_ERR_UNKNOWN_HOST", {
        fieldName: "host_server_oid",
        message: `host_server_oid '${req.host_server_oid}' is not a host server available to you; leave it blank to let us choose.`,
      });
    }
    if (req.dc_location && req.dc_location !== host.dc) {
      throw emuError("EMU_ERR_VALIDATION", {
        fieldName: "host_server_oid",
        message: `host_server_oid '${host.oid}' is in ${host.dc}, not in dc_location ${req.dc_location}.`,
      });
    }
    return { dc: requireEnabledDataCenter(host.dc, "host_server_oid"), host };
  }
  return { dc: requireEnabledDataCenter(req.dc_location ?? DEFAULT_DC, "dc_location") };
}
