/**
 * R4 POST /r/orders/new-vps, in three steps: work out the order from the request and the server's
 * defaults (with the setup-message wording real responses carry, docs/rimuhosting-api.md, R4 Create a VPS),
 * reserve a host, IPs and an order id in one synchronous step, then block for the realistic setup
 * time and answer with the running VPS.
 */
import type { NewVpsRequest } from "../../contract/index.js";
import type { DataCenter } from "../catalog/data-centers.js";
import type { PricingPlan } from "../catalog/pricing-plans.js";
import type { DemoAccount } from "../accounts.js";
import { hostName } from "../catalog/hosts.js";
import { DEFAULT_PLAN } from "../catalog/pricing-plans.js";
import { vpsMonthlyFeeUsd } from "../catalog/pricing.js";
import { emuError } from "../errors.js";
import type { HostState, OrderState } from "../state/schema.js";
import type { Outcome } from "./outcome.js";
import { chooseBillingMethod } from "./billing.js";
import { type Source, resolveControlPanel, resolveDataCenter, resolveSource } from "./create-source.js";
import { allocateIps, chooseHost, requireHostFits } from "./capacity.js";
import type { EmulatorContext } from "./context.js";
import { DURATIONS_MS } from "./durations.js";
import { generatePassword } from "./password.js";
import { injectedAuthorizedKeys } from "./injected-files.js";
import { toAboutOrder, toRunningVpsInfo } from "../wire/records.js";
import { MIN_DISK_MB, MIN_MEMORY_MB, requirePlanOfferedAt, requireSize, requireVpsPlan } from "./validate.js";

const MAX_IPS = 4;

type Sizes = Pick<OrderState, "memoryMb" | "diskMb" | "disk2Mb" | "disk3Mb">;

/** Everything the request decides, with the server's defaults filled in. */
interface OrderSpec {
  source: Source;
  controlPanel: string | null;
  plan: PricingPlan;
  dc: DataCenter;
  forcedHost: HostState | undefined;
  sizes: Sizes;
  numIps: number;
  billingOid: number;
  /** Setup messages so far, in the real service's order. */
  messages: string[];
}

/** Memory and disks, defaulting to the clone source's or the plan's minimum (with its messages). */
function resolveSizes(req: NewVpsRequest, plan: PricingPlan, source: Source, messages: string[]): Sizes {
  const vp = req.vps_parameters;
  const defaultDiskMb = source.clonedFrom?.diskMb ?? plan.minimumDiskGb * 1024;
  const defaultMemoryMb = source.clonedFrom?.memoryMb ?? plan.minimumMemoryMb;
  if (!vp || Object.values(vp).every((v) => v === null || v === undefined)) {
    messages.push("No VPS paramters provided, using default values.");
  }
  if (vp?.memory_mb == null) messages.push(`'memory_mb' not provided, setting to ${defaultMemoryMb}MB.`);
  if (vp?.disk_space_mb == null)
    messages.push(`'disk_space_mb' not provided, setting to ${defaultDiskMb / 1024}GB.`);
  return {
    memoryMb: requireSize(vp?.memory_mb ?? defaultMemoryMb, MIN_MEMORY_MB, "vps_parameters.memory_mb"),
    diskMb: requireSize(vp?.disk_space_mb ?? defaultDiskMb, MIN_DISK_MB, "vps_parameters.disk_space_mb"),
    disk2Mb: requireSize(vp?.disk_space_2_mb ?? 0, 0, "vps_parameters.disk_space_2_mb"),
    disk3Mb: requireSize(vp?.disk_space_3_mb ?? 0, 0, "vps_parameters.disk_space_3_mb"),
  };
}

/** ip_request.num_ips, validated (1 to MAX_IPS, a reason for more than one). Also judged by the quote's dry run. */
export function requireIpRequest(req: NewVpsRequest): number {
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
  return numIps;
}

/** Step 1: the order the request asks for, validated; nothing is reserved yet. */
function resolveOrderSpec(ctx: EmulatorContext, account: DemoAccount, req: NewVpsRequest): OrderSpec {
  const messages: string[] = [];
  const source = resolveSource(ctx, account, req, messages);
  const controlPanel = resolveControlPanel(req.instantiation_options?.control_panel);
  const plan = requireVpsPlan(req.pricing_plan_code ?? DEFAULT_PLAN, "pricing_plan_code");
  const { dc, host: forcedHost } = resolveDataCenter(ctx, req);
  requirePlanOfferedAt(plan, dc);
  const sizes = resolveSizes(req, plan, source, messages);
  const numIps = requireIpRequest(req);
  if (req.user_oid) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: "user_oid",
      message: "You have no permission on that user_oid; omit it to order as the logged-in user.",
    });
  }
  const billing = chooseBillingMethod(ctx.store, account.name, req.billing_oid);
  messages.push(billing.message, `Selected user as the logged in user: ${account.holder}`);
  return {
    source,
    controlPanel,
    plan,
    dc,
    forcedHost,
    sizes,
    numIps,
    billingOid: billing.method.billingOid,
    messages,
  };
}

/**
 * Step 2: checks and reserves host capacity, IPs and the order id in one synchronous step, so
 * concurrent creates see each other's reservations, and records the order (DEPLOYING).
 */
function reserveOrder(
  ctx: EmulatorContext,
  account: DemoAccount,
  req: NewVpsRequest,
  spec: OrderSpec,
): OrderState {
  const { store, clock } = ctx;
  const { sizes, dc, plan, source } = spec;
  const need = {
    memoryMb: sizes.memoryMb,
    diskMb: sizes.diskMb + sizes.disk2Mb + sizes.disk3Mb,
    ips: spec.numIps,
    minDiskFreeGb: req.host_server_selector?.min_vm_disk_free_gb ?? undefined,
  };
  let host: HostState;
  if (spec.forcedHost) {
    requireHostFits(store, spec.forcedHost, need);
    host = spec.forcedHost;
  } else {
    host = chooseHost(store, dc.code, need);
  }
  const [primaryIp, ...secondaryIps] = allocateIps(store, host, spec.numIps);
  const orderOid = store.state.nextOrderOid;
  store.state.nextOrderOid += store.random.int(1, 97);
  const order: OrderState = {
    orderOid,
    account: account.name,
    domainName: source.domainName,
    serverType: "VPS",
    planCode: plan.code,
    dc: dc.code,
    hostOid: host.oid,
    distro: source.distro.code,
    ...sizes,
    usedDiskMb: source.usedDiskMb,
    primaryIp: primaryIp ?? null,
    secondaryIps,
    runningState: "NOTRUNNING",
    deployedState: "DEPLOYING",
    billingOid: spec.billingOid,
    monthlyFeeUsd: vpsMonthlyFeeUsd(sizes, dc),
    dataTransferGb: plan.dataTransferGb,
    controlPanel: spec.controlPanel,
    metaData: (req.meta_data ?? []).map((m) => ({ key_name: m.key_name, value: m.value ?? null })),
    ptr: {},
    rootAuthorizedKeys: injectedAuthorizedKeys(req.file_injection_data),
    orderDateMs: clock.now(),
    startedAtMs: null,
    cancellationDateMs: null,
    removedAtMs: null,
  };
  store.addOrder(order);
  return order;
}

/** The request as the server echoes it: every default it applied, written out. */
function echoRequest(
  req: NewVpsRequest,
  spec: OrderSpec,
  order: OrderState,
  password: string,
): NewVpsRequest {
  return {
    ...req,
    instantiation_options: spec.source.clonedFrom
      ? (req.instantiation_options ?? null)
      : {
          ...req.instantiation_options,
          domain_name: order.domainName,
          distro: order.distro,
          password,
          control_panel: spec.controlPanel ?? "",
        },
    instantiation_via_clone_options: req.instantiation_via_clone_options ?? null,
    pricing_plan_code: spec.plan.code,
    dc_location: spec.dc.code,
    vps_parameters: {
      memory_mb: spec.sizes.memoryMb,
      disk_space_mb: spec.sizes.diskMb,
      disk_space_2_mb: spec.sizes.disk2Mb,
      disk_space_3_mb: spec.sizes.disk3Mb,
    },
    billing_oid: spec.billingOid,
    user_oid: req.user_oid ?? 0,
    host_server_oid: req.host_server_oid ?? null,
    ip_request: {
      num_ips: spec.numIps,
      extra_ip_reason: req.ip_request?.extra_ip_reason ?? "",
      requested_ips: req.ip_request?.requested_ips ?? null,
    },
    file_injection_data: req.file_injection_data ?? null,
    meta_data: order.metaData,
  };
}

/** `planCurrencies`: the plans priced in another currency only (the planCurrencies option), billed in it. */
export async function createVps(
  ctx: EmulatorContext,
  account: DemoAccount,
  req: NewVpsRequest,
  planCurrencies: Readonly<Record<string, OrderState["feeCurrency"]>> = {},
): Promise<Outcome<"createVps">> {
  const { store, clock } = ctx;
  const spec = resolveOrderSpec(ctx, account, req);
  const order = reserveOrder(ctx, account, req, spec);
  const feeCurrency = planCurrencies[order.planCode];
  if (feeCurrency) order.feeCurrency = feeCurrency;
  const password = req.instantiation_options?.password || generatePassword(store.random);

  // Step 3: the setup itself, after any change already queued on this order.
  return store.withLock(order.orderOid, async () => {
    const usedGb = spec.source.usedDiskMb / 1024;
    await clock.work(
      spec.source.clonedFrom
        ? DURATIONS_MS.cloneBase + usedGb * DURATIONS_MS.clonePerGb
        : DURATIONS_MS.create,
      order.orderOid,
    );
    order.deployedState = "DEPLOYED";
    order.runningState = "RUNNING";
    order.startedAtMs = clock.now();
    store.changed(order);
    spec.messages.push(
      `${order.domainName} is set up on ${hostName(order.hostOid!)} with IP ${order.primaryIp} and is pinging OK.`,
    );
    return {
      message: null,
      about_order: toAboutOrder(order),
      new_order_request: echoRequest(req, spec, order, password),
      running_vps_info: toRunningVpsInfo(order, clock.now()),
      setup_messages: spec.messages,
    };
  });
}
