/** A fresh emulator state: the demo accounts' billing methods and the host servers, no orders. */
import { DEMO_ACCOUNTS, DEMO_BILLING_METHODS } from "../accounts.js";
import { HOST_TEMPLATES } from "../catalog/hosts.js";
import { createRandom } from "../random.js";
import { type EmulatorState, type OrderState, STATE_VERSION } from "./schema.js";

/** A dedicated server: not on a VPS host, so it has no host and takes no host capacity. */
function dedicatedServer(orderOid: number, billingOid: number, orderDateMs: number): OrderState {
  return {
    orderOid,
    account: "bob",
    domainName: "db1.bob.example.com",
    serverType: "PHYSICAL",
    planCode: "DEDI-E2136",
    dc: "DCDALLAS",
    hostOid: null,
    distro: "deb12.64",
    memoryMb: 32768,
    diskMb: 983040,
    disk2Mb: 0,
    disk3Mb: 0,
    usedDiskMb: 120000,
    primaryIp: "192.0.2.5",
    secondaryIps: [],
    runningState: "RUNNING",
    deployedState: "DEPLOYED",
    billingOid,
    monthlyFeeUsd: 249,
    dataTransferGb: 5000,
    controlPanel: null,
    metaData: [],
    ptr: {},
    rootAuthorizedKeys: null,
    orderDateMs,
    startedAtMs: orderDateMs,
    cancellationDateMs: null,
    removedAtMs: null,
  };
}

export interface SeedOptions {
  /** Give the "bob" account one dedicated (PHYSICAL) server. */
  dedicatedServers?: boolean;
}

export function createInitialState(seed: number, nowMs: number, options: SeedOptions = {}): EmulatorState {
  const random = createRandom(seed);
  let billingOid = 96122465 + random.int(0, 1000);
  const billingMethods = DEMO_ACCOUNTS.flatMap((account) =>
    (DEMO_BILLING_METHODS[account.name] ?? []).map((m) => ({
      billingOid: (billingOid += random.int(1, 999)),
      account: account.name,
      type: m.type,
      description: m.description,
    })),
  );
  const hosts = HOST_TEMPLATES.map((h) => ({
    ...h,
    bootedAtMs: nowMs - random.int(10, 200) * 86_400_000,
  }));
  const nextOrderOid = 2_000_000_000 + random.int(0, 99_999_999);
  const orders: OrderState[] = [];
  const bobBilling = billingMethods.find((m) => m.account === "bob");
  if (options.dedicatedServers && bobBilling) {
    orders.push(dedicatedServer(nextOrderOid - 1000, bobBilling.billingOid, nowMs - 90 * 86_400_000));
  }
  return {
    version: STATE_VERSION,
    nextOrderOid,
    randomState: random.state(),
    hosts,
    billingMethods,
    orders,
  };
}
