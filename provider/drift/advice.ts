/**
 * What repairs each kind of drift, in the words the report prints under its table: the command that repairs it
 * (`pulumi up --refresh`, `pulumi refresh`) or the program change it needs first, as it is true for that kind.
 * The check's `refresh --preview-only` wrote no state, so a plain `pulumi up` repairs nothing (Pulumi compares the
 * program with the state): every piece of advice names `up --refresh` or `refresh`. Where `up --refresh` would do
 * harm (replace the VPS for an `ipCount` or a `dcLocation`, erase it for a `distro`), the advice says so and names
 * the program change instead. test/drift/report.test.ts holds each kind; the engine tests follow some as written.
 */

/** One kind of drift: the report's properties it covers, and what to do about it. */
interface Advice {
  kind: string;
  properties: readonly string[];
  text: string;
}

/** In the order the report lists them. */
const ADVICE: readonly Advice[] = [
  {
    kind: "Gone",
    properties: ["order"],
    text:
      "`pulumi up --refresh` orders a new VPS as the program says (a new IP address, an empty disk); to let it " +
      "go, remove it from the program, then run `pulumi refresh`. The fee shown is what RimuHosting no longer " +
      "bills; a credit for the unused time, if RimuHosting gave one, was in its answer to whoever deleted it: no " +
      "read of its API reports it.",
  },
  {
    kind: "Cancellation scheduled",
    properties: ["cancellationDate"],
    text:
      "RimuHosting will cancel it on that day and it runs until then; its API cannot undo a cancellation. To keep " +
      "it, ask RimuHosting's support to undo it before that day, then run `pulumi refresh`. To let it go, run " +
      "`pulumi refresh` (it records the day); once the day has passed, `pulumi up --refresh` orders a new VPS.",
  },
  {
    kind: "Resized",
    properties: ["memoryMb"],
    text:
      "`pulumi up --refresh` resizes it back to what the program says (the VPS restarts). To keep the new size, " +
      "write it in the program, then run `pulumi refresh`; a program that sets no size keeps it with " +
      "`pulumi refresh` alone.",
  },
  {
    kind: "Disk grown",
    properties: ["diskSpaceMb", "diskSpace2Mb"],
    text:
      "A disk cannot shrink: write the new size in the program, then run `pulumi refresh` (`pulumi up --refresh` " +
      "is refused while the program says the smaller size).",
  },
  {
    kind: "Stopped or started",
    properties: ["runningState"],
    text:
      "`pulumi up --refresh` starts or stops it as the program's `runningState` says. A program without " +
      "`runningState` leaves the running state to you: `pulumi refresh` records it, and `up --refresh` does not " +
      "start it.",
  },
  {
    kind: "Reinstalled",
    properties: ["distro"],
    text:
      "Write the new `distro` in the program, then run `pulumi refresh`. `pulumi up --refresh` would reinstall the " +
      "program's distro, erasing the disk, and is refused unless the program sets `allowReinstall: true`.",
  },
  {
    kind: "Moved, or addresses changed",
    properties: ["hostServerOid", "primaryIp", "secondaryIps", "ipCount"],
    text:
      "The VPS keeps its new host and addresses: `pulumi refresh` records them, and a program that does not set " +
      "`hostServerOid` (those `import-file` and `pulumi import` write do not) is then up to date. A program that " +
      "sets `hostServerOid` must say the new host first, or leave it out (`pulumi up --refresh` or a plain " +
      "`pulumi up` after the refresh would move the VPS back, changing its IP address again); one that sets " +
      "`ipCount` must say the new count first (`pulumi up --refresh` would replace the VPS for it).",
  },
  {
    kind: "Another data centre",
    properties: ["dcLocation"],
    text:
      "Write the new `dcLocation` in the program, then run `pulumi refresh`: `pulumi up --refresh` would replace " +
      "the VPS (a new order in the program's data centre).",
  },
  {
    kind: "Fee changed",
    properties: ["monthlyFeeUsd"],
    text: "RimuHosting changed what it bills: `pulumi refresh` records the new fee (no program sets a fee).",
  },
];

/** Any other property (a secret, metadata, a fee alone). */
const OTHERWISE: Advice = {
  kind: "Other changes",
  properties: [],
  text:
    "`pulumi up --refresh` puts back what the program says; `pulumi refresh` keeps what changed (then make the " +
    "program say the same).",
};

/** The advice for the rows' properties, each kind once, with the VPSs it concerns, in ADVICE's order. */
export function adviceFor(
  rows: readonly { vps: string; property: string }[],
): { kind: string; vpss: string[]; text: string }[] {
  const found = new Map<Advice, Set<string>>();
  for (const row of rows) {
    const advice = ADVICE.find((candidate) => candidate.properties.includes(row.property)) ?? OTHERWISE;
    if (!found.has(advice)) found.set(advice, new Set());
    found.get(advice)!.add(row.vps);
  }
  return [...ADVICE, OTHERWISE]
    .filter((advice) => found.has(advice))
    .map((advice) => ({ kind: advice.kind, vpss: [...found.get(advice)!], text: advice.text }));
}
