/**
 * R4 POST /r/orders/new-vps: validates the request, applies the server's defaults (with the recorded
 * setup-message wording, rimuhosting-api.md §R4), reserves a host, IPs and an order id in one
 * synchronous step, then blocks for the realistic setup time and answers with the running VPS.
 */
import type { NewVpsRequest, PostNewVpsResponse } from "../../contract/index.js";
import type { DemoAccount } from "../accounts.js";
import { hostName } from "../catalog/hosts.js";
import { DEFAULT_PLAN, isPlanOfferedAt } from "../catalog/pricing-plans.js";
import { vpsMonthlyFeeUsd } from "../catalog/pricing.js";
import { emuError } from "../errors.js";
import type { HostState, OrderState } from "../state/schema.js";
import { okEnvelope } from "../wire/envelope.js";
import { chooseBillingMethod } from "./billing.js";
import { resolveControlPanel, resolveDataCenter, resolveSource } from "./create-source.js";
import { allocateIps, chooseHost, requireHostFits } from "./capacity.js";
import type { EmulatorContext } from "./context.js";
import { DURATIONS_MS } from "./durations.js";
import { generatePassword } from "./password.js";
import { injectedAuthorizedKeys } from "./injected-files.js";
import { toAboutOrder, toRunningVpsInfo } from "./render.js";
import { MIN_DISK_MB, MIN_MEMORY_MB, requireSize, requireVpsPlan } from "./validate.js";

const MAX_IPS = 4;

export async function createVps(
  ctx: EmulatorContext,
  account: DemoAccount,
  req: NewVpsRequest,
): Promise<PostNewVpsResponse> {
  const { store, clock } = ctx;
  const messages: string[] = [];
  const source = resolveSource(ctx, account, req, messages);
  const controlPanel = resolveControlPanel(req.instantiation_options?.control_panel);
  const plan = requireVpsPlan(req.pricing_plan_code ?? DEFAULT_PLAN, "pricing_plan_code");
  const { dc, host: forcedHost } = resolveDataCenter(ctx, req);
  if (!isPlanOfferedAt(plan, dc)) {
    throw emuError("EMU_ERR_UNKNOWN_PLAN", {
      fieldName: "pricing_plan_code",
      message: `pricing_plan_code '${plan.code}' is not offered in ${dc.name}; see GET /r/pricing-plans;dc-location=${dc.code}.`,
    });
  }

  const vp = req.vps_parameters;
  const defaultDiskMb = source.clonedFrom?.diskMb ?? plan.minimumDiskGb * 1024;
  const defaultMemoryMb = source.clonedFrom?.memoryMb ?? plan.minimumMemoryMb;
  if (!vp || Object.values(vp).every((v) => v === null || v === undefined)) {
    messages.push("No VPS paramters provided, using default values.");
  }
  if (vp?.memory_mb == null) messages.push(`'memory_mb' not provided, setting to ${defaultMemoryMb}MB.`);
  if (vp?.disk_space_mb == null)
    messages.push(`'disk_space_mb' not provided, setting to ${defaultDiskMb / 1024}GB.`);
  const memoryMb = requireSize(vp?.memory_mb ?? defaultMemoryMb, MIN_MEMORY_MB, "vps_parameters.memory_mb");
  const diskMb = requireSize(vp?.disk_space_mb ?? defaultDiskMb, MIN_DISK_MB, "vps_parameters.disk_space_mb");
  const disk2Mb = requireSize(vp?.disk_space_2_mb ?? 0, 0, "vps_parameters.disk_space_2_mb");
  const disk3Mb = requireSize(vp?.disk_space_3_mb ?? 0, 0, "vps_parameters.disk_space_3_mb");

  const numIps = req.ip_request?.num_ips ?? 1;
  if (numIps < 1 || numIps > MAX_IPS) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: "ip_request.num_ips",
      message: `ip_request.num_ips is ${numIps} but must be between 1 and ${MAX_IPS}; ask support for more.`,
    });
  }
  if (numIps > 1 && !req.ip_request?.extra_ip_reason) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: "ip_request.extra_ip_reason",
      message: "ip_request.extra_ip_reason must say why more than one IP address is needed.",
    });
  }
  if (req.user_oid) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: "user_oid",
      message: "You have no permission on that user_oid; omit it to order as the logged-in user.",
    });
  }

  const billing = chooseBillingMethod(store, account.name, req.billing_oid);
  messages.push(billing.message, `Selected user as the logged in user: ${account.holder}`);

  // Check and reserve in one synchronous step: concurrent creates must see each other's reservations.
  const need = {
    memoryMb,
    diskMb: diskMb + disk2Mb + disk3Mb,
    ips: numIps,
    minDiskFreeGb: req.host_server_selector?.min_vm_disk_free_gb ?? undefined,
  };
  let host: HostState;
  if (forcedHost) {
    requireHostFits(store, forcedHost, need);
    host = forcedHost;
  } else {
    host = chooseHost(store, dc.code, need);
  }
  const [primaryIp, ...secondaryIps] = allocateIps(store, host, numIps);
  const orderOid = store.state.nextOrderOid;
  store.state.nextOrderOid += store.random.int(1, 97);
  const password = req.instantiation_options?.password || generatePassword(store.random);
  const now = clock.now();
  const order: OrderState = {
    orderOid,
    account: account.name,
    domainName: source.domainName,
    serverType: "VPS",
    planCode: plan.code,
    dc: dc.code,
    hostOid: host.oid,
    distro: source.distro.code,
    memoryMb,
    diskMb,
    disk2Mb,
    disk3Mb,
    usedDiskMb: source.usedDiskMb,
    primaryIp: primaryIp ?? null,
    secondaryIps,
    runningState: "NOTRUNNING",
    deployedState: "DEPLOYING",
    billingOid: billing.method.billingOid,
    monthlyFeeUsd: vpsMonthlyFeeUsd({ memoryMb, diskMb, disk2Mb, disk3Mb }, dc),
    dataTransferGb: plan.dataTransferGb,
    controlPanel,
    metaData: (req.meta_data ?? []).map((m) => ({ key_name: m.key_name, value: m.value ?? null })),
    ptr: {},
    rootAuthorizedKeys: injectedAuthorizedKeys(req.file_injection_data),
    orderDateMs: now,
    startedAtMs: null,
    cancellationDateMs: null,
    removedAtMs: null,
  };
  store.addOrder(order);

  return store.withLock(orderOid, async () => {
    const usedGb = source.usedDiskMb / 1024;
    await clock.work(
      source.clonedFrom ? DURATIONS_MS.cloneBase + usedGb * DURATIONS_MS.clonePerGb : DURATIONS_MS.create,
    );
    order.deployedState = "DEPLOYED";
    order.runningState = "RUNNING";
    order.startedAtMs = clock.now();
    store.changed();
    messages.push(
      `${order.domainName} is set up on ${hostName(host.oid)} with IP ${order.primaryIp} and is pinging OK.`,
    );
    const echo: NewVpsRequest = {
      ...req,
      instantiation_options: source.clonedFrom
        ? (req.instantiation_options ?? null)
        : {
            ...req.instantiation_options,
            domain_name: order.domainName,
            distro: order.distro,
            password,
            control_panel: controlPanel ?? "",
          },
      instantiation_via_clone_options: req.instantiation_via_clone_options ?? null,
      pricing_plan_code: plan.code,
      dc_location: dc.code,
      vps_parameters: {
        memory_mb: memoryMb,
        disk_space_mb: diskMb,
        disk_space_2_mb: disk2Mb,
        disk_space_3_mb: disk3Mb,
      },
      billing_oid: billing.method.billingOid,
      user_oid: req.user_oid ?? 0,
      host_server_oid: req.host_server_oid ?? null,
      ip_request: {
        num_ips: numIps,
        extra_ip_reason: req.ip_request?.extra_ip_reason ?? "",
        requested_ips: req.ip_request?.requested_ips ?? null,
      },
      file_injection_data: req.file_injection_data ?? null,
      meta_data: order.metaData,
    };
    return {
      ...okEnvelope(clock.now(), null),
      about_order: toAboutOrder(order),
      new_order_request: echo,
      running_vps_info: toRunningVpsInfo(order, clock.now()),
      setup_messages: messages,
    };
  });
}
