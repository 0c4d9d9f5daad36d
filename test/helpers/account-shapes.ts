/**
 * Seeded accounts of varied VPSs, for adoption tests (issue 57): an account whose VPSs all look alike hides what an
 * import leaves out (10 VPSs of one IP each passed while four of 27 with several IPs were replaced). accountShapes()
 * describes `count` VPSs from a seed; the first ones cover each shape on its own (several IPs, a second disk,
 * stopped, each data centre with hosts, an unlisted distro, a dedicated VPS on a host the order chose, another
 * billing method, a cancellation at the end of the billing period, domain names that collide or hold characters an
 * identifier cannot), the rest mix them at random. placeAccount() orders them in the emulator through RimuHosting's
 * own API (real HTTP), as the control panel would: no creation token or nonce, so nothing marks them a stack's.
 * No jest here: test/engine uses it from plain node too.
 */
import { HOST_TEMPLATES } from "../../emulator/catalog/hosts.js";
import { createRandom, type Random } from "../../emulator/random.js";
import type { TestEmulator } from "./start-emulator.js";

/** One VPS of an account, as ordered. */
export interface VpsShape {
  domainName: string;
  dc: string;
  distro: string;
  memoryMb: number;
  diskSpaceMb: number;
  /** 0: no second disk. */
  diskSpace2Mb: number;
  ipCount: number;
  /** Stopped after ordering (PUT …/running-state NOTRUNNING). */
  stopped: boolean;
  /** `DEDICATED` on a host the order names; undefined: RimuHosting's class and host. */
  dedicatedHost?: string;
  /** Which of the account's billing methods pays (index into GET /billing-methods); undefined: RimuHosting picks. */
  billing?: number;
  /** Cancelled at the end of its billing period (PUT …/cancelled): still running until then. */
  cancelAtPeriodEnd: boolean;
}

/** The data centres that have hosts in the emulator: every one a VPS can be ordered in. */
export const SHAPE_DATA_CENTRES = [...new Set(HOST_TEMPLATES.map((h) => h.dc))];

/** Domain names that collide once made identifiers, or hold characters an identifier cannot (resource-names.ts). */
const AWKWARD_NAMES = [
  "shop.example.com",
  "shop-example.com", // the same identifier as shop.example.com
  "SHOP.example.co", // differs from shop.example.com only in case and a letter
  "1cache.example.com", // starts with a digit
  "import.example.net", // a keyword once its dots go
  "db--1.example.com", // two hyphens
];

const DISTROS = ["deb12.64", "deb13.64", "ubuntu2404.64", "alma9.64"];
/** A distro RimuHosting no longer lists (emulator/catalog/distributions.ts): a VPS installed long ago. */
const UNLISTED_DISTRO = "centos6.64";

const pick = <T>(random: Random, items: readonly T[]): T => items[random.int(0, items.length - 1)]!;
const chance = (random: Random, percent: number) => random.int(1, 100) <= percent;

/** A plain VPS in `dc`, sized at random (sizes RimuHosting accepts: whole GB of disk, 512 MB steps of memory). */
function plain(random: Random, domainName: string, dc: string): VpsShape {
  return {
    domainName,
    dc,
    distro: pick(random, DISTROS),
    memoryMb: 512 * random.int(1, 8),
    diskSpaceMb: 1024 * random.int(4, 40),
    diskSpace2Mb: 0,
    ipCount: 1,
    stopped: false,
    cancelAtPeriodEnd: false,
  };
}

/** The first shapes: each kind on its own, so every seed's account has each one. */
function eachKind(random: Random): VpsShape[] {
  const dallas = (name: string) => plain(random, name, "DCDALLAS");
  const hostIn = (dc: string) =>
    pick(
      random,
      HOST_TEMPLATES.filter((h) => h.dc === dc),
    ).oid;
  return [
    { ...dallas("ips.example.com"), ipCount: random.int(2, 4) },
    { ...dallas("disks.example.com"), diskSpace2Mb: 1024 * random.int(1, 20) },
    { ...dallas("stopped.example.com"), stopped: true },
    { ...dallas("legacy.example.com"), distro: UNLISTED_DISTRO },
    { ...plain(random, "dedicated.example.com", "DCLONDON"), dedicatedHost: hostIn("DCLONDON") },
    { ...dallas("billed.example.com"), billing: 1 },
    { ...dallas("leaving.example.com"), cancelAtPeriodEnd: true },
    ...SHAPE_DATA_CENTRES.map((dc) => plain(random, `${dc.slice(2).toLowerCase()}.example.com`, dc)),
    ...AWKWARD_NAMES.map(dallas),
  ];
}

/** A VPS mixing the shapes at random. */
function mixed(random: Random, n: number): VpsShape {
  const dc = pick(random, SHAPE_DATA_CENTRES);
  const base = plain(random, `vps${n}.${pick(random, ["example.com", "example.org"])}`, dc);
  const host = pick(
    random,
    HOST_TEMPLATES.filter((h) => h.dc === dc),
  ).oid;
  return {
    ...base,
    ipCount: chance(random, 30) ? random.int(2, 4) : 1,
    diskSpace2Mb: chance(random, 30) ? 1024 * random.int(1, 20) : 0,
    stopped: chance(random, 20),
    distro: chance(random, 10) ? UNLISTED_DISTRO : base.distro,
    ...(chance(random, 15) ? { dedicatedHost: host } : {}),
    ...(chance(random, 30) ? { billing: random.int(0, 2) } : {}),
  };
}

/**
 * `count` VPSs for `seed`: the same list for the same seed. Fewer than the kinds there are (about 20) gives the first
 * `count` kinds.
 */
export function accountShapes(seed: number, count: number): VpsShape[] {
  const random = createRandom(seed);
  const shapes = eachKind(random);
  for (let n = shapes.length; n < count; n += 1) shapes.push(mixed(random, n));
  return shapes.slice(0, count);
}

/** What the emulator answers to an order. */
interface Placed {
  post_new_vps_response: { about_order: { order_oid: number } };
}

/**
 * Orders each shape in the emulator's demo account, as a user outside Pulumi would, then stops or cancels it as the
 * shape says. Resolves to the order numbers, in the order of `shapes`.
 */
export async function placeAccount(
  emulator: Pick<TestEmulator, "api">,
  shapes: readonly VpsShape[],
): Promise<number[]> {
  const methods = await emulator.api<{
    get_billing_methods_response: { billing_methods: { billing_oid: number }[] };
  }>("GET", "/billing-methods");
  const billingOids = methods.body.get_billing_methods_response.billing_methods.map((m) => m.billing_oid);
  const oids: number[] = [];
  for (const shape of shapes) {
    const placed = await emulator.api<Placed>("POST", "/orders/new-vps", {
      new_order_request: {
        instantiation_options: { domain_name: shape.domainName, distro: shape.distro },
        dc_location: shape.dc,
        vps_parameters: {
          memory_mb: shape.memoryMb,
          disk_space_mb: shape.diskSpaceMb,
          ...(shape.diskSpace2Mb > 0 ? { disk_space_2_mb: shape.diskSpace2Mb } : {}),
        },
        ...(shape.ipCount > 1
          ? { ip_request: { num_ips: shape.ipCount, extra_ip_reason: "several sites, one address each" } }
          : {}),
        ...(shape.dedicatedHost !== undefined
          ? { vps_type: "DEDICATED", host_server_oid: shape.dedicatedHost }
          : {}),
        ...(shape.billing !== undefined
          ? { billing_oid: billingOids[shape.billing % billingOids.length] }
          : {}),
      },
    });
    if (placed.status !== 200)
      throw new Error(`the emulator refused ${shape.domainName} (${JSON.stringify(shape)}): ${placed.text}`);
    const oid = placed.body.post_new_vps_response.about_order.order_oid;
    const slug = `/orders/order-${oid}-${shape.domainName.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
    if (shape.stopped)
      await expectOk(
        emulator.api("PUT", `${slug}/vps/running-state`, { running_state: "NOTRUNNING" }),
        shape,
      );
    if (shape.cancelAtPeriodEnd) await expectOk(emulator.api("PUT", `${slug}/cancelled`), shape);
    oids.push(oid);
  }
  return oids;
}

async function expectOk(call: Promise<{ status: number; text: string }>, shape: VpsShape): Promise<void> {
  const answer = await call;
  if (answer.status !== 200)
    throw new Error(`the emulator refused a change of ${shape.domainName}: ${answer.text}`);
}
