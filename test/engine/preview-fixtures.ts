/**
 * What the preview's case table (preview-cases.ts) runs against: the baseline VPSs the first `pulumi up` creates,
 * which the rows for existing VPSs change, and what the test prepares in the emulator before the cases run (billing
 * methods, orders to adopt or not, addresses), for rows to refer to.
 */

import { DEMO_ACCOUNTS, DEMO_API_KEY } from "../../emulator/index";
import { createClient, type RimuClient } from "../../provider/client/index";
import type { TestEmulator } from "../helpers/start-emulator";

export type Args = Record<string, unknown>;

/** What the test prepares before the cases run (orders, billing methods, hosts), for cases to refer to. */
export interface Fixtures {
  /** The demo account's billing methods (ids). */
  demoBilling: number[];
  /** A billing method of another account. */
  otherAccountBilling: number;
  /** A cancelled order of the demo account. */
  cancelledOrder: number;
  /** An active order (legacy.example.com) to adopt. */
  legacyOrder: number;
  /** An order of another account. */
  otherAccountOrder: number;
  /** An API root where something else answers (a 404 for every RimuHosting path). */
  notTheApi: string;
  /** An address where nothing answers. */
  nothingThere: string;
}

/** A VPS the first `pulumi up` creates, that existing-VPS cases change. */
export const BASELINE: Record<string, Args> = {
  // refused cases change these (nothing is applied, so they may share them)
  "e-small": {
    domainName: "e-small.example.com",
    dcLocation: "DCDALLAS",
    memoryMb: 1024,
    diskSpaceMb: 20480,
    distro: "deb12.64",
  },
  "e-nodistro": { domainName: "e-nodistro.example.com", dcLocation: "DCDALLAS", memoryMb: 1024 },
  "e-big": { domainName: "e-big.example.com", dcLocation: "DCDALLAS", memoryMb: 8192 },
  // four 1 GB VPSs on the small host 836 (6 GB free before them, 2 GB after): a fleet's changes add up there
  ...Object.fromEntries(
    ["a", "b", "c", "d"].map((x) => [
      `h836-${x}`,
      { domainName: `h836-${x}.example.com`, dcLocation: "DCDALLAS", memoryMb: 1024, hostServerOid: "836" },
    ]),
  ),
  // each accepted case has a VPS of its own (its change is applied)
  "a-reinstall": { domainName: "a-reinstall.example.com", dcLocation: "DCDALLAS", memoryMb: 1024 },
  "a-resize": { domainName: "a-resize.example.com", dcLocation: "DCDALLAS", memoryMb: 1024 },
  "a-move": {
    domainName: "a-move.example.com",
    dcLocation: "DCDALLAS",
    memoryMb: 1024,
    hostServerOid: "764",
  },
  "a-replace": { domainName: "a-replace.example.com", dcLocation: "DCDALLAS", memoryMb: 1024 },
  "a-stop": { domainName: "a-stop.example.com", dcLocation: "DCDALLAS", memoryMb: 1024 },
  "a-billing": { domainName: "a-billing.example.com", dcLocation: "DCDALLAS", memoryMb: 1024 },
  "a-distro": {
    domainName: "a-distro.example.com",
    dcLocation: "DCDALLAS",
    memoryMb: 1024,
    distro: "deb12.64",
  },
};

/** What the test prepares in an emulator: billing methods, orders to adopt or not, addresses. */
export async function prepare(emulator: TestEmulator): Promise<Fixtures> {
  const demo = createClient({ apiKey: DEMO_API_KEY, baseUrl: emulator.baseUrl });
  const alice = createClient({ apiKey: DEMO_ACCOUNTS[1]!.apiKey, baseUrl: emulator.baseUrl });
  try {
    const order = async (client: RimuClient, domain: string) =>
      (
        await client.createVps({
          instantiation_options: { domain_name: domain, distro: "deb12.64" },
          dc_location: "DCDALLAS",
        })
      ).about_order.order_oid;
    const cancelled = await order(demo, "gone.example.com");
    await demo.deleteVps(cancelled);
    const root = new URL(emulator.baseUrl).origin;
    return {
      demoBilling: ((await demo.listBillingMethods()).billing_methods ?? []).map((m) => m.billing_oid),
      otherAccountBilling: ((await alice.listBillingMethods()).billing_methods ?? [])[0]!.billing_oid,
      cancelledOrder: cancelled,
      legacyOrder: await order(demo, "legacy.example.com"),
      otherAccountOrder: await order(alice, "alice.example.com"),
      notTheApi: `${root}/not-the-api`,
      nothingThere: "http://127.0.0.1:1",
    };
  } finally {
    demo.close();
    alice.close();
  }
}
