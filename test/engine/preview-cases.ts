/**
 * The table of bad and risky inputs and changes (issue 18): each refused case must fail the preview (and so
 * `pulumi up`) with its code and the input or setting it names, placing or changing nothing; each risky case must
 * pass, and the preview must say what it does (the disk is erased, the VPS restarts, the IP changes, the price) on
 * the resource itself. New cases are one row here. Every refused row's checks run in-process
 * (test/provider/impl/refused-rows.test.ts); preview-cases.test.ts takes the REFUSED_THROUGH_CLI rows and every
 * risky one through the real CLI.
 */

import { DEMO_ACCOUNTS, DEMO_API_KEY } from "../../emulator/index";
import { createClient, type RimuClient } from "../../provider/client/index";
import type { TestEmulator } from "../helpers/start-emulator";

type Args = Record<string, unknown>;

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

const ED25519 =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFlWCSQwPzZ/O47lFS6VStUBcrGtkOpQAP+mb0awEyTE admin@example.com";

export interface RefusedCase {
  id: string;
  /** What is wrong, in the user's words (the report's first column). */
  what: string;
  /** A new VPS (its args), or a change to the existing VPS `base`. */
  on: "new" | "existing";
  base?: keyof typeof BASELINE;
  args: (f: Fixtures) => Args;
  /**
   * Other VPSs of the same program, changed (existing: baseline VPSs, by name) or new, ahead of this one in program
   * order (`behind`: after it): what they need of a host adds up with what this one needs. The preview must fail
   * on one of them, with the code and input of the case: whichever the engine checks when the sum no longer fits.
   */
  alongside?: Record<string, Args>;
  behind?: Record<string, Args>;
  /** Also run on the native plugin with a YAML program (native-preview-cases.test.ts). */
  native?: true;
  /** Stack config set for this case only. */
  config?: (f: Fixtures) => Record<string, string>;
  /** The code, and the input or setting named right after it. */
  code: string;
  names: string;
  /** More words the message must hold. */
  says?: RegExp;
}

export interface RiskyCase {
  id: string;
  what: string;
  on: "new" | "existing";
  base?: keyof typeof BASELINE;
  args: (f: Fixtures) => Args;
  /** Lines the preview must show on the resource. */
  shows: RegExp[];
  /** The outputs a move changes show unknown, and the dependent record a pending update. */
  unknownIp?: true;
  /** A new VPS inside a component (its URN carries the component's type; the warnings must still reach it). */
  inGroup?: true;
}

const newVps = (args: Args) => () => ({ domainName: "n.example.com", dcLocation: "DCDALLAS", ...args });

export const REFUSED: RefusedCase[] = [
  // sizes against the service's limits
  {
    id: "memory-below-min",
    what: "memoryMb: 100 (the minimum is 128)",
    on: "new",
    args: newVps({ memoryMb: 100 }),
    code: "RIMU_ERR_VALIDATION",
    names: "memoryMb",
    says: /at least 128 MB.*given: 100/,
  },
  {
    id: "disk-below-min",
    what: "diskSpaceMb: 512 (the minimum is 1024)",
    on: "new",
    args: newVps({ diskSpaceMb: 512 }),
    code: "RIMU_ERR_VALIDATION",
    names: "diskSpaceMb",
    says: /at least 1024 MB/,
  },
  {
    id: "memory-string",
    what: 'memoryMb: "2048" (a string)',
    on: "new",
    args: newVps({ memoryMb: "2048" }),
    code: "RIMU_ERR_VALIDATION",
    names: "memoryMb",
    says: /given: "2048"/,
  },
  {
    id: "memory-fraction",
    what: "memoryMb: 1.5",
    on: "new",
    args: newVps({ memoryMb: 1.5 }),
    code: "RIMU_ERR_VALIDATION",
    names: "memoryMb",
    says: /whole number/,
  },
  {
    id: "memory-negative",
    what: "memoryMb: -1",
    on: "new",
    args: newVps({ memoryMb: -1 }),
    code: "RIMU_ERR_VALIDATION",
    names: "memoryMb",
  },
  {
    id: "disk2-negative",
    what: "diskSpace2Mb: -5",
    on: "new",
    args: newVps({ diskSpace2Mb: -5 }),
    code: "RIMU_ERR_VALIDATION",
    names: "diskSpace2Mb",
  },
  {
    id: "memory-no-host",
    what: "memoryMb: 1048576 (no host in the data centre can fit it)",
    on: "new",
    args: newVps({ memoryMb: 1048576 }),
    code: "RIMU_ERR_CONFLICT",
    names: "memoryMb",
    says: /No host server in Dallas/,
  },
  {
    id: "memory-on-small-host",
    what: 'memoryMb: 8192 on hostServerOid "836" (6 GB free)',
    on: "new",
    args: newVps({ memoryMb: 8192, hostServerOid: "836" }),
    code: "RIMU_ERR_CONFLICT",
    names: "hostServerOid",
    says: /8192MB memory/,
  },
  {
    id: "fleet-new-no-room",
    what: 'four new 2 GB VPSs on hostServerOid "836" (6 GB free): each fits alone, together they need 8 GB',
    on: "new",
    alongside: Object.fromEntries(
      [1, 2, 3].map((i) => [
        `n-fleet-${i}`,
        {
          domainName: `n-fleet-${i}.example.com`,
          dcLocation: "DCDALLAS",
          memoryMb: 2048,
          hostServerOid: "836",
        },
      ]),
    ),
    args: newVps({ memoryMb: 2048, hostServerOid: "836" }),
    code: "RIMU_ERR_CONFLICT",
    names: "hostServerOid",
    // Any three fit, so the fourth check finds they do not: it names all four, and the one the rule sets aside (of equal
    // claims, the name that sorts last), whichever order the engine checked them in.
    says: /host 836 has no room for this run's new VPSs on it together \(8192 MB memory; RimuHosting says: .*has 6144MB memory.*\): n-fleet-1 \(new\) takes 2048 MB memory, n-fleet-2 \(new\) takes 2048 MB memory, n-fleet-3 \(new\) takes 2048 MB memory, n-fleet-new-no-room \(new\) takes 2048 MB memory\. Without n-fleet-new-no-room the rest fit: leave n-fleet-new-no-room out of this run/,
    native: true,
  },
  {
    id: "ips-over-service-limit",
    what: "ipCount: 5 (the service gives at most 4)",
    on: "new",
    args: newVps({ ipCount: 5 }),
    code: "RIMU_ERR_VALIDATION",
    names: "ipCount",
    says: /between 1 and 4/,
  },
  {
    id: "ips-zero",
    what: "ipCount: 0",
    on: "new",
    args: newVps({ ipCount: 0 }),
    code: "RIMU_ERR_VALIDATION",
    names: "ipCount",
  },
  // billing method
  {
    id: "billing-unknown",
    what: "billingOid: 999999 (no such billing method)",
    on: "new",
    args: newVps({ billingOid: 999999 }),
    code: "RIMU_ERR_VALIDATION",
    names: "billingOid",
    says: /not one of this account's billing methods/,
  },
  {
    id: "billing-other-account",
    what: "billingOid of another account",
    on: "new",
    args: (f) => newVps({ billingOid: f.otherAccountBilling })(),
    code: "RIMU_ERR_VALIDATION",
    names: "billingOid",
    says: /not one of this account's billing methods/,
  },
  {
    id: "billing-text",
    what: 'billingOid: "abc"',
    on: "new",
    args: newVps({ billingOid: "abc" }),
    code: "RIMU_ERR_VALIDATION",
    names: "billingOid",
  },
  // host server
  {
    id: "host-unknown",
    what: 'hostServerOid: "9999" (no such host)',
    on: "new",
    args: newVps({ hostServerOid: "9999" }),
    code: "RIMU_ERR_VALIDATION",
    names: "hostServerOid",
    says: /not a host server available to you/,
  },
  {
    id: "host-other-dc",
    what: 'hostServerOid: "1201" (in London) with dcLocation DCDALLAS',
    on: "new",
    args: newVps({ hostServerOid: "1201" }),
    code: "RIMU_ERR_VALIDATION",
    names: "hostServerOid",
    says: /DCLONDON/,
  },
  {
    id: "host-fraction",
    what: "hostServerOid: 7.5 (a number that is no host id; a whole number is one: a YAML config value)",
    on: "new",
    args: newVps({ hostServerOid: 7.5 }),
    code: "RIMU_ERR_VALIDATION",
    names: "hostServerOid",
  },
  // catalogue
  {
    id: "plan-unknown",
    what: 'pricingPlanCode: "NOPE1"',
    on: "new",
    args: newVps({ pricingPlanCode: "NOPE1" }),
    code: "RIMU_ERR_VALIDATION",
    names: "pricingPlanCode",
    says: /not a VPS pricing plan/,
  },
  {
    id: "plan-not-in-dc",
    what: "pricingPlanCode MiroVPSLowContention (Dallas only) in DCLONDON",
    on: "new",
    args: newVps({ pricingPlanCode: "MiroVPSLowContention", dcLocation: "DCLONDON" }),
    code: "RIMU_ERR_VALIDATION",
    names: "pricingPlanCode",
    says: /not offered in London/,
  },
  {
    id: "dc-unknown",
    what: 'dcLocation: "DCMARS"',
    on: "new",
    args: newVps({ dcLocation: "DCMARS" }),
    code: "RIMU_ERR_VALIDATION",
    names: "dcLocation",
  },
  {
    id: "dc-closed",
    what: "dcLocation DCDALLAS2 (takes no new servers)",
    on: "new",
    args: newVps({ dcLocation: "DCDALLAS2" }),
    code: "RIMU_ERR_VALIDATION",
    names: "dcLocation",
    says: /takes no new servers/,
  },
  {
    id: "distro-misspelled",
    what: 'distro: "deb12.46" (no such distribution)',
    on: "new",
    args: newVps({ distro: "deb12.46" }),
    code: "RIMU_ERR_VALIDATION",
    names: "distro",
    says: /not a distribution we install/,
  },
  {
    id: "distro-space",
    what: 'distro: "deb12 64"',
    on: "new",
    args: newVps({ distro: "deb12 64" }),
    code: "RIMU_ERR_VALIDATION",
    names: "distro",
  },
  // internal inputs
  {
    id: "internal-scope",
    what: "creationScope set by the program",
    on: "new",
    args: newVps({ creationScope: "mine" }),
    code: "RIMU_ERR_VALIDATION",
    names: "creationScope",
    says: /is internal/,
  },
  {
    id: "internal-nonce",
    what: "__creationNonce set by the program",
    on: "new",
    args: newVps({ __creationNonce: "0".repeat(32) }),
    code: "RIMU_ERR_VALIDATION",
    names: "__creationNonce",
    says: /is internal/,
  },
  {
    id: "internal-provider",
    what: "__provider set by the program",
    on: "new",
    args: newVps({ __provider: "exports.handler = () => ({})" }),
    code: "RIMU_ERR_VALIDATION",
    names: "__provider",
    says: /is internal/,
  },
  {
    id: "internal-preview",
    what: "__preview set by the program",
    on: "new",
    args: newVps({ __preview: true }),
    code: "RIMU_ERR_VALIDATION",
    names: "__preview",
    says: /is internal/,
  },
  // SSH keys, files, text inputs
  {
    id: "ssh-truncated",
    what: "sshKeys: a key with its body cut short",
    on: "new",
    args: newVps({ sshKeys: [`${ED25519.split(" ").slice(0, 2).join(" ").slice(0, 60)} cut@short`] }),
    code: "RIMU_ERR_VALIDATION",
    names: "sshKeys.0",
    says: /cut short/,
  },
  {
    id: "ssh-private",
    what: "sshKeys: a private key",
    on: "new",
    args: newVps({ sshKeys: ["-----BEGIN OPENSSH PRIVATE KEY-----"] }),
    code: "RIMU_ERR_VALIDATION",
    names: "sshKeys.0",
    says: /private key/,
  },
  {
    id: "ssh-mislabelled",
    what: "sshKeys: an ed25519 key labelled ssh-rsa",
    on: "new",
    args: newVps({ sshKeys: [ED25519.replace("ssh-ed25519", "ssh-rsa")] }),
    code: "RIMU_ERR_VALIDATION",
    names: "sshKeys.0",
    says: /does not encode a ssh-rsa key/,
  },
  {
    id: "ssh-two-in-one",
    what: "sshKeys: two keys in one entry",
    on: "new",
    args: newVps({ sshKeys: [`${ED25519}\n${ED25519}`] }),
    code: "RIMU_ERR_VALIDATION",
    names: "sshKeys.0",
    says: /one public key per entry/,
  },
  {
    id: "ssh-and-files",
    what: "sshKeys beside a files entry for authorized_keys",
    on: "new",
    args: newVps({ sshKeys: [ED25519], files: [{ path: "/root/.ssh/authorized_keys", content: "x" }] }),
    code: "RIMU_ERR_VALIDATION",
    names: "sshKeys",
    says: /overwrite/,
  },
  {
    id: "files-relative",
    what: "files: a relative path",
    on: "new",
    args: newVps({ files: [{ path: "etc/motd", content: "x" }] }),
    code: "RIMU_ERR_VALIDATION",
    names: "files.0.path",
  },
  {
    id: "files-escape",
    what: "files: /../../etc/shadow",
    on: "new",
    args: newVps({ files: [{ path: "/../../etc/shadow", content: "x" }] }),
    code: "RIMU_ERR_VALIDATION",
    names: "files.0.path",
  },
  {
    id: "password-short",
    what: "password: 5 characters",
    on: "new",
    args: newVps({ password: "short" }),
    code: "RIMU_ERR_VALIDATION",
    names: "password",
    says: /at least 8 characters/,
  },
  {
    id: "cloud-config-nul",
    what: "cloudConfig with a NUL",
    on: "new",
    args: newVps({ cloudConfig: "#cloud-config\u0000" }),
    code: "RIMU_ERR_VALIDATION",
    names: "cloudConfig",
  },
  {
    id: "domain-missing",
    what: "no domainName",
    on: "new",
    args: () => ({ dcLocation: "DCDALLAS" }),
    code: "RIMU_ERR_VALIDATION",
    names: "domainName",
    says: /is required/,
  },
  {
    id: "domain-not-fqdn",
    what: 'domainName: "web1"',
    on: "new",
    args: newVps({ domainName: "web1" }),
    code: "RIMU_ERR_VALIDATION",
    names: "domainName",
  },
  {
    id: "key-typo",
    what: "memorymb (a typo of memoryMb)",
    on: "new",
    args: newVps({ memorymb: 2048 }),
    code: "RIMU_ERR_VALIDATION",
    names: "memorymb",
    says: /did you mean memoryMb/,
  },
  {
    id: "running-state",
    what: 'runningState: "OFF"',
    on: "new",
    args: newVps({ runningState: "OFF" }),
    code: "RIMU_ERR_VALIDATION",
    names: "runningState",
    says: /given: "OFF"/,
  },
  {
    id: "reverse-dns",
    what: 'reverseDns: "-a.example.com"',
    on: "new",
    args: newVps({ reverseDns: "-a.example.com" }),
    code: "RIMU_ERR_VALIDATION",
    names: "reverseDns",
  },
  {
    id: "meta-reserved",
    what: "metaData key pulumi-rimuhosting:x (reserved)",
    on: "new",
    args: newVps({ metaData: { "pulumi-rimuhosting:x": "y" } }),
    code: "RIMU_ERR_VALIDATION",
    names: "metaData.pulumi-rimuhosting:x",
    says: /keys starting with "pulumi-rimuhosting:" are reserved/,
    native: true,
  },
  {
    id: "meta-space",
    what: 'metaData key "team name" (a space)',
    on: "new",
    args: newVps({ metaData: { "team name": "web" } }),
    code: "RIMU_ERR_VALIDATION",
    names: "metaData.team name",
    says: /must not contain whitespace or colons\.$/,
    native: true,
  },
  {
    id: "timeouts-negative",
    what: "timeouts.createMinutes: -1",
    on: "new",
    args: newVps({ timeouts: { createMinutes: -1 } }),
    code: "RIMU_ERR_VALIDATION",
    names: "timeouts.createMinutes",
  },
  {
    id: "control-panel",
    what: 'controlPanel: "cpanel"',
    on: "new",
    args: newVps({ controlPanel: "cpanel" }),
    code: "RIMU_ERR_VALIDATION",
    names: "controlPanel",
  },
  {
    id: "vps-type",
    what: 'vpsType: "FAST"',
    on: "new",
    args: newVps({ vpsType: "FAST" }),
    code: "RIMU_ERR_VALIDATION",
    names: "vpsType",
  },
  {
    id: "allow-reinstall-text",
    what: 'allowReinstall: "yes"',
    on: "new",
    args: newVps({ allowReinstall: "yes" }),
    code: "RIMU_ERR_VALIDATION",
    names: "allowReinstall",
  },
  // adoption
  {
    id: "adopt-missing",
    what: "adoptOrderOid of no order",
    on: "new",
    args: newVps({ adoptOrderOid: 999999 }),
    code: "RIMU_ERR_ADOPTION",
    names: "adoptOrderOid",
    says: /does not exist on this account/,
  },
  {
    id: "adopt-cancelled",
    what: "adoptOrderOid of a cancelled order",
    on: "new",
    args: (f) => newVps({ domainName: "gone.example.com", adoptOrderOid: f.cancelledOrder })(),
    code: "RIMU_ERR_ADOPTION",
    names: "adoptOrderOid",
    says: /cancelled/,
  },
  {
    id: "adopt-other-domain",
    what: "adoptOrderOid of an order with another domainName",
    on: "new",
    args: (f) => newVps({ adoptOrderOid: f.legacyOrder })(),
    code: "RIMU_ERR_ADOPTION",
    names: "adoptOrderOid",
    says: /legacy\.example\.com/,
  },
  {
    id: "adopt-other-account",
    what: "adoptOrderOid of another account's order",
    on: "new",
    args: (f) => newVps({ adoptOrderOid: f.otherAccountOrder })(),
    code: "RIMU_ERR_ADOPTION",
    names: "adoptOrderOid",
    says: /does not exist on this account/,
  },
  {
    id: "adopt-fraction",
    what: "adoptOrderOid: 1.5",
    on: "new",
    args: newVps({ adoptOrderOid: 1.5 }),
    code: "RIMU_ERR_VALIDATION",
    names: "adoptOrderOid",
    says: /given: 1.5/,
  },
  // settings
  {
    id: "wrong-key",
    what: "a wrong rimuhosting:apiKey",
    on: "existing",
    base: "e-small",
    args: () => ({}),
    config: () => ({ "rimuhosting:apiKey": "99999999999999999999999999999999" }),
    code: "RIMU_ERR_AUTH",
    names: "rimuhosting:apiKey",
    says: /403 from GET http:\/\/127\.0\.0\.1:\d+\/r\/orders/,
  },
  {
    id: "unreachable",
    what: "a rimuhosting:baseUrl where nothing answers",
    on: "existing",
    base: "e-small",
    args: () => ({}),
    config: (f) => ({ "rimuhosting:baseUrl": f.nothingThere }),
    code: "RIMU_ERR_CONFIG",
    names: "rimuhosting:baseUrl",
    says: /nothing answers at http:\/\/127\.0\.0\.1:\d+\/r \(connection refused\); tried GET http:\/\/127\.0\.0\.1:\d+\/r\/orders/,
  },
  {
    id: "not-the-api",
    what: "a rimuhosting:baseUrl where something else answers",
    on: "existing",
    base: "e-small",
    args: () => ({}),
    config: (f) => ({ "rimuhosting:baseUrl": f.notTheApi }),
    code: "RIMU_ERR_CONFIG",
    names: "rimuhosting:baseUrl",
    says: /not RimuHosting's API/,
  },
  // changes to an existing VPS
  {
    id: "existing-shrink",
    what: "diskSpaceMb 20480 → 10240 (disks only grow)",
    on: "existing",
    base: "e-small",
    args: () => ({ diskSpaceMb: 10240 }),
    code: "RIMU_ERR_CHANGE_REFUSED",
    names: "diskSpaceMb",
    says: /cannot shrink/,
  },
  {
    id: "existing-distro",
    what: "distro deb12.64 → deb13.64 without allowReinstall",
    on: "existing",
    base: "e-small",
    args: () => ({ distro: "deb13.64" }),
    code: "RIMU_ERR_CHANGE_REFUSED",
    names: "distro",
    says: /erases its disk/,
  },
  {
    id: "existing-distro-set",
    what: "distro set (none before) to another than installed, without allowReinstall",
    on: "existing",
    base: "e-nodistro",
    args: () => ({ distro: "ubuntu2404.64" }),
    code: "RIMU_ERR_CHANGE_REFUSED",
    names: "distro",
    says: /erases its disk/,
  },
  {
    id: "existing-ssh-added",
    what: "sshKeys added without allowReinstall",
    on: "existing",
    base: "e-small",
    args: () => ({ sshKeys: [ED25519] }),
    code: "RIMU_ERR_CHANGE_REFUSED",
    names: "sshKeys",
    says: /erases its disk/,
  },
  {
    id: "existing-password",
    what: "password set without allowReinstall",
    on: "existing",
    base: "e-small",
    args: () => ({ password: "a-new-root-password" }),
    code: "RIMU_ERR_CHANGE_REFUSED",
    names: "password",
    says: /erases its disk/,
  },
  {
    id: "existing-distro-not-installed",
    what: "distro deb12.64 → deb99.64 (RimuHosting installs no such distro) with allowReinstall",
    on: "existing",
    base: "e-small",
    args: () => ({ distro: "deb99.64", allowReinstall: true }),
    code: "RIMU_ERR_VALIDATION",
    names: "distro",
    says: /RimuHosting does not install deb99\.64.*use one of deb13\.64, .*getDistributions\(\).*put distro back to deb12\.64/,
    native: true,
  },
  {
    id: "fleet-resize-no-room",
    what: "four 1 GB VPSs on host 836 (2 GB free) each resized to 3 GB: each fits alone, together they need 8 GB",
    on: "existing",
    base: "h836-b",
    alongside: { "h836-a": { memoryMb: 3072 } },
    behind: { "h836-c": { memoryMb: 3072 }, "h836-d": { memoryMb: 3072 } },
    args: () => ({ memoryMb: 3072 }),
    code: "RIMU_ERR_CONFLICT",
    names: "memoryMb",
    // The second check finds they do not fit (and the engine stops there): it names both resizes checked so far.
    says: /host 836 has 2048 MB memory and \d+ GB disk free, and this run's changes on it take 4096 MB memory together: (h836-\w) grows by 2048 MB memory, (h836-\w) grows by 2048 MB memory\. Without (h836-\w) the rest fit: grow \3 by less, or move it to a host with room first \(hostServerOid\)/,
    native: true,
  },
  {
    id: "existing-host-other-dc",
    what: 'hostServerOid "1201" (London) for a VPS in Dallas',
    on: "existing",
    base: "e-small",
    args: () => ({ hostServerOid: "1201" }),
    code: "RIMU_ERR_VALIDATION",
    names: "hostServerOid",
    says: /DCLONDON/,
  },
  {
    id: "existing-host-unknown",
    what: 'hostServerOid "9999" (no such host)',
    on: "existing",
    base: "e-small",
    args: () => ({ hostServerOid: "9999" }),
    code: "RIMU_ERR_VALIDATION",
    names: "hostServerOid",
    says: /not a host server available to you/,
  },
  {
    id: "existing-host-no-room",
    what: 'move an 8 GB VPS to host "836" (2 GB free)',
    on: "existing",
    base: "e-big",
    args: () => ({ hostServerOid: "836" }),
    code: "RIMU_ERR_CONFLICT",
    names: "hostServerOid",
    says: /8192MB memory/,
  },
  {
    id: "existing-resize-no-room",
    what: "memoryMb 1024 → 196608 (more than its host has free)",
    on: "existing",
    base: "e-small",
    args: () => ({ memoryMb: 196608 }),
    code: "RIMU_ERR_CONFLICT",
    names: "memoryMb",
    says: /has no room to grow it/,
  },
  {
    id: "existing-billing-unknown",
    what: "billingOid changed to no such billing method",
    on: "existing",
    base: "e-small",
    args: () => ({ billingOid: 999999 }),
    code: "RIMU_ERR_VALIDATION",
    names: "billingOid",
    says: /not one of this account's billing methods/,
  },
  {
    id: "existing-memory-below-min",
    what: "memoryMb 1024 → 100",
    on: "existing",
    base: "e-small",
    args: () => ({ memoryMb: 100 }),
    code: "RIMU_ERR_VALIDATION",
    names: "memoryMb",
    says: /at least 128 MB/,
  },
  {
    id: "existing-internal-scope",
    what: "creationScope set by the program on an existing VPS",
    on: "existing",
    base: "e-small",
    args: () => ({ creationScope: "x/y/z" }),
    code: "RIMU_ERR_VALIDATION",
    names: "creationScope",
    says: /is internal/,
  },
];

/**
 * The refused rows preview-cases.test.ts also takes through the real CLI, each one `pulumi up` of its own: every row
 * of a stack setting, every row whose VPSs add up on a host, and the first row of each code no such row shows (for
 * new VPSs or for changes to existing ones: the first in the table). What the engine does with a check that fails
 * (stops the preview there, prints the line on the resource, orders nothing) is the same for every row of a kind;
 * refused-rows.test.ts checks every other row's inputs in-process, the way the engine checks them. One row per code
 * in all, not one for new VPSs and one for changes (CPU, issue 67): the code and its words are the check's, shown
 * in-process for every row; through the CLI each lane has its rows (new: memory-below-min, adopt-missing; changes:
 * existing-shrink) beside the ones whose VPSs add up.
 */
const throughCliAlways = (c: RefusedCase) =>
  c.config !== undefined || c.alongside !== undefined || c.behind !== undefined;
export const REFUSED_THROUGH_CLI: RefusedCase[] = REFUSED.filter(
  (c, i) =>
    throughCliAlways(c) ||
    (!REFUSED.some((other) => throughCliAlways(other) && !other.config && other.code === c.code) &&
      REFUSED.findIndex((other) => !throughCliAlways(other) && other.code === c.code) === i),
);

export const RISKY: RiskyCase[] = [
  {
    id: "reinstall",
    what: "sshKeys added with allowReinstall (a reinstall)",
    on: "existing",
    base: "a-reinstall",
    args: () => ({ sshKeys: [ED25519], allowReinstall: true }),
    shows: [/warning: a-reinstall: changing sshKeys reinstalls the VPS in place: its disk is erased/],
  },
  {
    id: "resize",
    what: "memoryMb 1024 → 2048 (a resize)",
    on: "existing",
    base: "a-resize",
    args: () => ({ memoryMb: 2048 }),
    shows: [
      /warning: a-resize: resizing memoryMb restarts the VPS/,
      /a-resize: resize 1024 → 2048 MB: \$\d+\.\d\d → \$\d+\.\d\d a month \(\+\$\d+\.\d\d\)/,
    ],
  },
  {
    id: "move",
    what: 'hostServerOid "764" → "835" (a move in Dallas)',
    on: "existing",
    base: "a-move",
    args: () => ({ hostServerOid: "835" }),
    shows: [
      /warning: a-move: moving to host server 835 changes its IP addresses: primaryIp, secondaryIps are unknown/,
    ],
    unknownIp: true,
  },
  {
    id: "replace",
    what: "domainName changed (a replacement)",
    on: "existing",
    base: "a-replace",
    args: () => ({ domainName: "a-replace-2.example.com" }),
    shows: [
      /a-replace: replacement VPS: \$\d+\.\d\d → \$\d+\.\d\d a month \(±\$0\.00; the old VPS is cancelled/,
    ],
  },
  {
    id: "stop",
    what: "runningState NOTRUNNING (a stop)",
    on: "existing",
    base: "a-stop",
    args: () => ({ runningState: "NOTRUNNING" }),
    shows: [/warning: a-stop: runningState NOTRUNNING stops the VPS/],
  },
  {
    id: "billing-change",
    what: "billingOid changed on an existing VPS (not applied)",
    on: "existing",
    base: "a-billing",
    args: (f) => ({ billingOid: f.demoBilling[2] }),
    shows: [/warning: a-billing: billingOid is used only when ordering/],
  },
  {
    id: "distro-unlisted",
    what: "distro deb11.64 (unlisted, still installed) with allowReinstall",
    on: "existing",
    base: "a-distro",
    args: () => ({ distro: "deb11.64", allowReinstall: true }),
    shows: [
      /warning: a-distro: distro deb11\.64 is not in RimuHosting's list/,
      /warning: a-distro: changing distro reinstalls the VPS in place/,
    ],
  },
  {
    id: "new-priced",
    what: "a new VPS",
    on: "new",
    args: newVps({ domainName: "r-new.example.com", memoryMb: 2048 }),
    shows: [/r-new-priced: new VPS: \$\d+\.\d\d a month \(quoted by RimuHosting\)/],
  },
  {
    id: "adopt",
    what: "adoptOrderOid with more memory than the order has",
    on: "new",
    args: (f) => ({
      domainName: "legacy.example.com",
      dcLocation: "DCDALLAS",
      adoptOrderOid: f.legacyOrder,
      memoryMb: 2048,
    }),
    shows: [
      /r-adopt: will adopt existing order \d+/,
      /r-adopt: adopting order \d+: \$10\.00 → \$16\.00 a month \(\+\$6\.00\)/,
    ],
  },
  {
    id: "grouped",
    what: "a new VPS inside a component resource",
    on: "new",
    inGroup: true,
    args: newVps({ domainName: "r-grouped.example.com" }),
    shows: [/r-grouped: new VPS: \$\d+\.\d\d a month \(quoted by RimuHosting\)/],
  },
];

/** The program of a case: its VPSs by name, records built from some of their IPs, VPSs inside a component. */
export interface CaseProgram {
  vpss: Record<string, Record<string, unknown>>;
  dependents?: string[];
  group?: Record<string, Record<string, unknown>>;
}

/** The records built from an IP (the move's). */
export const DEPENDENTS = RISKY.filter((c) => c.unknownIp).map((c) => c.base!);

/**
 * A case's program: a new VPS alone (on a stack of its own), or the `baseline` with the case's change, the changed
 * VPS first (the engine checks in program order, and stops at the first failure); in both, the case's `alongside`
 * VPSs come just before its own and its `behind` ones just after.
 */
export function caseSpec(
  c: RefusedCase | RiskyCase,
  name: string,
  f: Fixtures,
  baseline: Record<string, Record<string, unknown>> = BASELINE,
): CaseProgram {
  const ahead = "alongside" in c ? (c.alongside ?? {}) : {};
  const behind = "behind" in c ? (c.behind ?? {}) : {};
  if (c.on === "new") return { vpss: { ...ahead, [name]: c.args(f), ...behind } };
  const changes: Record<string, Record<string, unknown>> = { ...ahead, [c.base!]: c.args(f), ...behind };
  const order = [...new Set([...Object.keys(changes), ...Object.keys(baseline)])];
  return {
    vpss: Object.fromEntries(order.map((vps) => [vps, { ...baseline[vps], ...changes[vps] }])),
    dependents: DEPENDENTS.filter((d) => d in baseline),
  };
}

export const refusedName = (c: RefusedCase) => (c.on === "new" ? `n-${c.id}` : c.base!);
export const riskyName = (c: RiskyCase) => (c.on === "new" ? `r-${c.id}` : c.base!);

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
