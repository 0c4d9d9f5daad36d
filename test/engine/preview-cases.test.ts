// Preview tells the truth (issue 18), through the real CLI: every bad or risky input and change of the table in
// preview-cases.ts. A refused one fails `pulumi up` in its preview, with its code and the input or setting it names,
// and nothing is ordered or changed; a risky one passes, its preview says on the resource what it does (the disk is
// erased, the VPS restarts, the IP changes, the price), and `pulumi up` then does it.
//
// The engine stops a preview at the first resource whose check fails, so each refused case is one `pulumi up` of a
// program holding just that VPS; the risky cases share one preview and one update. Two lanes (a stack and an
// emulator each: new VPSs, and changes to existing ones) run side by side; all operations run in beforeAll and the
// tests read their results. PREVIEW_CASES_RECORD=<file> also writes what each case showed, and
// PREVIEW_CASES_ASSERT=0 skips the assertions (both used to compare with earlier code).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { DEMO_ACCOUNTS, DEMO_API_KEY } from "../../emulator/index";
import { createClient, type RimuClient } from "../../provider/client/index";
import { startTestEmulator, type TestEmulator } from "../helpers/start-emulator";
import { CliStack } from "./cli-stack";
import { describeCliOnly } from "./each-backend";
import { BASELINE, REFUSED, RISKY, type Fixtures, type RefusedCase, type RiskyCase } from "./preview-cases";

jest.setTimeout(45 * 60_000);

const PROGRAM_DIR = path.join(__dirname, "fixtures", "preview-cases");
const VPS_TYPE = "pulumi-nodejs:dynamic/rimuhosting:Vps";
const RECORD = process.env.PREVIEW_CASES_RECORD;
const ASSERT = process.env.PREVIEW_CASES_ASSERT !== "0";
/** PREVIEW_CASES_ONLY=<id>,<id>: run just these cases (while working on them; the whole table otherwise). */
const ONLY = process.env.PREVIEW_CASES_ONLY?.split(",");
const REFUSED_RUN = REFUSED.filter((c) => !ONLY || ONLY.includes(c.id));
const RISKY_RUN = RISKY.filter((c) => !ONLY || ONLY.includes(c.id));
const MUTATING = new Set(["POST", "PUT", "DELETE", "PATCH"]);

interface Diagnostic {
  urn?: string;
  severity: string;
  message: string;
}

/** What one `pulumi` operation showed. */
interface Shown {
  failed: boolean;
  diagnostics: Diagnostic[];
  /** op of each resource's step, by name. */
  steps: Record<string, string>;
  /** The preview's outputs of each Vps (unknowns as the SDK's sentinel). */
  outputs: Record<string, Record<string, unknown>>;
  /** Requests that change something (quotes excepted), during the operation. */
  mutations: string[];
  ms: number;
}

/** A stack of the fixture program with an emulator of its own. */
interface Lane {
  emulator: TestEmulator;
  stack: CliStack;
  casesFile: string;
  dir: string;
}

async function startLane(name: string): Promise<Lane> {
  const emulator = await startTestEmulator({ timeScale: 0 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `preview-cases-${name}-`));
  const casesFile = path.join(dir, "cases.json");
  const stack = await CliStack.create({
    programDir: PROGRAM_DIR,
    stackName: name,
    backendDir: path.join(dir, "backend"),
    env: { PREVIEW_CASES_FILE: casesFile },
    config: {
      "rimuhosting:apiKey": { value: DEMO_API_KEY, secret: true },
      "rimuhosting:baseUrl": emulator.baseUrl,
    },
  });
  return { emulator, stack, casesFile, dir };
}

async function closeLane(lane: Lane | undefined): Promise<void> {
  if (!lane) return;
  lane.stack.close();
  await lane.emulator.close();
  fs.rmSync(lane.dir, { recursive: true, force: true });
}

/** `<{%reset%}>`-style colour marks of the event log's messages, and trailing space. */
const plain = (text: string) => text.replace(/<\{%[^%]*%\}>/g, "").trim();

/** Runs `pulumi <args>` with the program given `spec`, and reads what it showed from its event log. */
async function operate(lane: Lane, spec: Record<string, unknown>, args: string[]): Promise<Shown> {
  fs.writeFileSync(lane.casesFile, JSON.stringify(spec));
  const eventLog = path.join(lane.dir, `events-${Date.now()}-${Math.random().toString(16).slice(2)}.jsonl`);
  const mark = lane.emulator.requestLog().length;
  const started = Date.now();
  let failed = false;
  try {
    await lane.stack.command(...args, "--event-log", eventLog);
  } catch {
    failed = true;
  }
  const events = fs.existsSync(eventLog)
    ? fs
        .readFileSync(eventLog, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as EngineEvent)
    : [];
  fs.rmSync(eventLog, { force: true });
  const shown: Shown = {
    failed,
    diagnostics: [],
    steps: {},
    outputs: {},
    mutations: lane.emulator
      .requestLog()
      .slice(mark)
      .filter((entry) => MUTATING.has(entry.method) && entry.route !== "quoteNewVm")
      .map((entry) => `${entry.method} ${entry.route}`),
    ms: Date.now() - started,
  };
  for (const event of events) {
    const d = event.diagnosticEvent;
    if (d && d.severity !== "info#err" && (d.severity as string) !== "debug" && !/^\s*$/.test(d.message))
      shown.diagnostics.push({ urn: d.urn || undefined, severity: d.severity, message: plain(d.message) });
    const meta = event.resourcePreEvent?.metadata ?? event.resOutputsEvent?.metadata;
    if (meta) {
      const name = meta.urn.slice(meta.urn.lastIndexOf("::") + 2);
      shown.steps[name] = meta.op;
      if (meta.type === VPS_TYPE && meta.new?.outputs) shown.outputs[name] = meta.new.outputs;
    }
  }
  return shown;
}

/** The lines shown about resource `name` (attached to it, or printed by the provider at the stack level). */
function linesAbout(shown: Shown, name: string): string[] {
  return shown.diagnostics
    .filter((d) => (d.urn ? d.urn.endsWith(`::${name}`) : true))
    .map((d) =>
      d.severity === "warning" && !d.message.startsWith("warning:") ? `warning: ${d.message}` : d.message,
    );
}

/** The stack's config for one case, and back to the lane's own after it. */
async function withConfig<T>(lane: Lane, config: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const keys = Object.keys(config);
  if (keys.length > 0)
    await lane.stack.command(
      "config",
      "set-all",
      ...keys.flatMap((k) => ["--plaintext", `${k}=${config[k]}`]),
    );
  try {
    return await run();
  } finally {
    if (keys.length > 0) {
      await lane.stack.command(
        "config",
        "set-all",
        "--secret",
        `rimuhosting:apiKey=${DEMO_API_KEY}`,
        "--plaintext",
        `rimuhosting:baseUrl=${lane.emulator.baseUrl}`,
      );
    }
  }
}

/** Runs `items` with at most `lanes.length` at a time, each on a lane of its own. */
async function inLanes<T>(
  lanes: Lane[],
  items: T[],
  run: (lane: Lane, item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    lanes.map(async (lane) => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(lane, item);
    }),
  );
}

/** What the test prepares in an emulator: billing methods, orders to adopt or not, addresses. */
async function prepare(emulator: TestEmulator): Promise<Fixtures> {
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

/** The records built from an IP (the move's). */
const DEPENDENTS = RISKY.filter((c) => c.unknownIp).map((c) => c.base!);

/**
 * A case's program: a new VPS alone (on a stack of its own), or the whole baseline with the case's change, the
 * changed VPS first (the engine checks in program order, and stops at the first failure).
 */
function caseSpec(c: RefusedCase | RiskyCase, name: string, f: Fixtures): Record<string, unknown> {
  if (c.on === "new") return { vpss: { [name]: c.args(f) } };
  return {
    vpss: { [c.base!]: { ...BASELINE[c.base!], ...c.args(f) }, ...withoutKey(BASELINE, c.base!) },
    dependents: DEPENDENTS,
  };
}

function withoutKey<T>(bag: Record<string, T>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(bag).filter(([k]) => k !== key));
}

const refusedName = (c: RefusedCase) => (c.on === "new" ? `n-${c.id}` : c.base!);
const riskyName = (c: RiskyCase) => (c.on === "new" ? `r-${c.id}` : c.base!);

describeCliOnly("preview tells the truth: a table of bad and risky inputs and changes", () => {
  let existing: Lane | undefined;
  let fresh: Lane | undefined;
  let fixtures: Fixtures;
  const refused = new Map<string, Shown>();
  let riskyPreview: Shown;
  let riskyUp: Shown;
  let ipsBefore: Record<string, unknown> = {};
  let ipsAfter: Record<string, unknown> = {};
  const record: Record<string, unknown> = {};

  beforeAll(async () => {
    const started = Date.now();
    [existing, fresh] = await Promise.all([startLane("existing"), startLane("new")]);
    fixtures = await prepare(existing.emulator);
    // The same orders and ids in both (seeded emulators), so new-VPS cases may name them too.
    const { notTheApi: _own, ...ids } = fixtures;
    expect(await prepare(fresh.emulator)).toMatchObject(ids);
    const baseline = await operate(existing, { vpss: BASELINE, dependents: DEPENDENTS }, [
      "up",
      "--yes",
      "--skip-preview",
    ]);
    if (baseline.failed) throw new Error(`the baseline up failed: ${JSON.stringify(baseline.diagnostics)}`);
    ipsBefore = JSON.parse(await existing.stack.command("stack", "output", "ips", "--json")) as Record<
      string,
      unknown
    >;

    // Refused cases: one `pulumi up` each (its preview must stop it), new VPSs and existing ones side by side.
    const news = REFUSED_RUN.filter((c) => c.on === "new");
    const olds = REFUSED_RUN.filter((c) => c.on === "existing");
    await Promise.all([
      inLanes([fresh], news, async (lane, c) => {
        refused.set(c.id, await operate(lane, caseSpec(c, refusedName(c), fixtures), ["up", "--yes"]));
      }),
      inLanes([existing], olds, async (lane, c) => {
        const config = c.config?.(fixtures) ?? {};
        refused.set(
          c.id,
          await withConfig(lane, config, () =>
            operate(lane, caseSpec(c, refusedName(c), fixtures), ["up", "--yes"]),
          ),
        );
      }),
    ]);

    // Risky cases: the whole baseline with every change, one preview, then the update.
    const spec = {
      vpss: {
        ...BASELINE,
        ...Object.fromEntries(
          RISKY.filter((c) => c.on === "existing").map((c) => [
            c.base!,
            { ...BASELINE[c.base!], ...c.args(fixtures) },
          ]),
        ),
        ...Object.fromEntries(
          RISKY.filter((c) => c.on === "new" && !c.inGroup).map((c) => [riskyName(c), c.args(fixtures)]),
        ),
      },
      group: Object.fromEntries(RISKY.filter((c) => c.inGroup).map((c) => [riskyName(c), c.args(fixtures)])),
      dependents: DEPENDENTS,
    };
    if (RISKY_RUN.length > 0) {
      riskyPreview = await operate(existing, spec, ["preview"]);
      riskyUp = await operate(existing, spec, ["up", "--yes", "--skip-preview"]);
      ipsAfter = JSON.parse(await existing.stack.command("stack", "output", "ips", "--json")) as Record<
        string,
        unknown
      >;
    }
    record.timings = {
      totalMs: Date.now() - started,
      refusedOps: refused.size,
      medianRefusedMs: median([...refused.values()].map((s) => s.ms)),
    };
    if (RECORD) {
      record.refused = Object.fromEntries(
        REFUSED_RUN.map((c) => [
          c.id,
          { what: c.what, ...summary(refused.get(c.id)!, c.config ? undefined : refusedName(c)) },
        ]),
      );
      if (RISKY_RUN.length > 0) {
        record.risky = Object.fromEntries(
          RISKY_RUN.map((c) => [c.id, { what: c.what, preview: linesAbout(riskyPreview, riskyName(c)) }]),
        );
        record.riskyPreview = {
          failed: riskyPreview.failed,
          ms: riskyPreview.ms,
          mutations: riskyPreview.mutations,
        };
        record.riskyUp = { failed: riskyUp.failed, ms: riskyUp.ms, diagnostics: riskyUp.diagnostics };
      }
      fs.writeFileSync(RECORD, JSON.stringify(record, null, 2));
    }
  });

  afterAll(async () => {
    if (existing)
      await operate(existing, { vpss: {} }, ["destroy", "--yes", "--skip-preview"]).catch(() => undefined);
    await Promise.all([closeLane(existing), closeLane(fresh)]);
  });

  // Skipped only when comparing with earlier code (PREVIEW_CASES_ASSERT=0: it records what that code showed), and
  // the risky ones also when PREVIEW_CASES_ONLY names no risky case (a run of a few cases while working on them).
  // CI sets neither, so CI runs them all.
  const check = ASSERT ? test : test.skip;
  const checkRisky = ASSERT && RISKY_RUN.length > 0 ? test : test.skip;

  // Always run (also with PREVIEW_CASES_ASSERT=0, where it is what makes jest run beforeAll at all).
  test("every case of the table ran, and PREVIEW_CASES_RECORD (when set) holds what each showed", () => {
    expect(refused.size).toBe(REFUSED_RUN.length);
    if (RECORD)
      expect(Object.keys(JSON.parse(fs.readFileSync(RECORD, "utf8")).refused)).toHaveLength(refused.size);
  });

  check("the table holds at least 60 bad or risky inputs and changes, of new and existing VPSs", () => {
    expect(REFUSED.length + RISKY.length).toBeGreaterThanOrEqual(60);
    expect(new Set([...REFUSED, ...RISKY].map((c) => c.id)).size).toBe(REFUSED.length + RISKY.length);
    expect(REFUSED.some((c) => c.on === "existing") && REFUSED.some((c) => c.on === "new")).toBe(true);
  });

  check.each(REFUSED_RUN.map((c) => [c.id, c] as const))("refused: %s", (_id, c) => {
    const shown = refused.get(c.id)!;
    // A wrong setting fails every VPS alike: the engine reports whichever it checked first.
    const about = c.config ? "" : refusedName(c);
    const lines = c.config ? shown.diagnostics.map((d) => d.message) : linesAbout(shown, about);
    // The preview failed on this VPS, with the code and the input or setting named right after it, and nothing
    // was ordered or changed (the update never ran).
    expect({ failed: shown.failed, mutations: shown.mutations }).toEqual({ failed: true, mutations: [] });
    expect(lines).toContainEqual(expect.stringContaining(`[${c.code}] ${c.names}`));
    const error = lines.find((line) => line.includes(`[${c.code}] ${c.names}`))!;
    if (c.says) expect(error).toMatch(c.says);
    expect(error).toMatch(new RegExp(`resource '${about || "[^']+"}' has a problem`));
    expect(error).not.toMatch(/\n\s+at |value \{/); // no stack, no value in the engine's own notation
  });

  checkRisky("risky changes pass the preview and the update", () => {
    expect({
      preview: riskyPreview.failed,
      up: riskyUp.failed,
      diagnostics: riskyUp.diagnostics,
    }).toMatchObject({
      preview: false,
      up: false,
    });
  });

  checkRisky.each(RISKY_RUN.map((c) => [c.id, c] as const))(
    "risky: %s says what it does on the resource",
    (_id, c) => {
      const lines = linesAbout(riskyPreview, riskyName(c));
      for (const pattern of c.shows)
        expect({ lines }).toMatchObject({ lines: expect.arrayContaining([expect.stringMatching(pattern)]) });
      // Attached to the resource itself (its URN), not printed at the stack level.
      const type = c.inGroup ? `test:index:Group$${VPS_TYPE}` : VPS_TYPE;
      const attached = riskyPreview.diagnostics.filter((d) => d.urn?.endsWith(`::${type}::${riskyName(c)}`));
      expect(attached.length).toBeGreaterThan(0);
    },
  );

  checkRisky(
    "a move: the outputs it changes are unknown in the preview, the record built from the IP shows a change, and the IP changes",
    () => {
      const move = RISKY.find((c) => c.unknownIp)!;
      const name = riskyName(move);
      expect(riskyPreview.outputs[name]?.primaryIp).toBe("04da6b54-80e4-46f7-96ec-b56ff0331ba9");
      expect(riskyPreview.steps[`${name}-record`]).toBe("update");
      expect(riskyUp.steps[`${name}-record`]).toBe("update");
      expect(ipsBefore[name]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(ipsAfter[name]).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(ipsAfter[name]).not.toBe(ipsBefore[name]);
    },
  );

  checkRisky("the replacement's price is shown once, and the running total counts each VPS once", () => {
    const stackLines = riskyPreview.diagnostics.map((d) => d.message);
    expect(stackLines.filter((line) => /a-replace: (replacement|new) VPS/.test(line))).toHaveLength(1);
    // Each priced VPS's change, once per VPS: "(+$6.00)" on a resize or an adoption, "(±$0.00" on a replacement,
    // "new VPS: $16.00 a month" on a new one. Every change in this group adds to the bill, so the final total is the
    // largest; a VPS counted twice would make it larger than their sum.
    const change = new Map<string, number>();
    for (const line of stackLines) {
      const m = /^([\w-]+): .*?(?:\(([+±-])\$([\d.]+)|new VPS: \$([\d.]+) a month)/.exec(line);
      if (!m) continue;
      const amount = Number(m[3] ?? m[4]) * (m[2] === "-" ? -1 : 1);
      change.set(m[1]!, amount);
    }
    const totals = stackLines
      .map((line) => /all VPS changes so far: \+\$([\d.]+)/.exec(line)?.[1])
      .filter((total): total is string => total !== undefined)
      .map(Number);
    expect(change.get("a-replace")).toBe(0);
    expect(change.size).toBeGreaterThanOrEqual(4);
    const sum = [...change.values()].reduce((a, b) => a + b, 0);
    expect(Math.max(...totals)).toBeCloseTo(sum, 2);
  });
});

/** What a case showed, for the record: the lines about its VPS (any VPS for a setting), what it changed. */
function summary(shown: Shown, name: string | undefined): Record<string, unknown> {
  const lines = name === undefined ? shown.diagnostics.map((d) => d.message) : linesAbout(shown, name);
  return { failed: shown.failed, mutations: shown.mutations, shown: lines, ms: shown.ms };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
