/**
 * The risky rows of the preview's case table (preview-cases.ts): each must pass, and the preview must say what it
 * does (the disk is erased, the VPS restarts, the IP changes, the price) on the resource itself. New cases of the
 * kind are one row here.
 */
import { ED25519, newVps, type RiskyCase } from "./preview-case-kinds";

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
