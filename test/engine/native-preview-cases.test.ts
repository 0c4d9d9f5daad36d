// The case table's rows marked `native` (preview-cases.ts) on the other front end: the native plugin with a YAML
// program, through the real CLI. Each refused case is one `pulumi up` whose preview must fail on the case's VPS, with
// its code and the input it names, ordering and changing nothing: the same assertions as the dynamic Vps's
// (preview-cases.test.ts), from the same core. Two lanes (new VPSs; changes to existing ones) run side by side.
import { describeNative } from "./native-programs";
import { REFUSED, caseSpec, refusedName } from "./preview-cases";
import { BASELINE, prepare, type Fixtures } from "./preview-fixtures";
import {
  closeLane,
  expectRefused,
  inLanes,
  operate,
  startLane,
  type Lane,
  type Shown,
} from "./preview-lanes";

jest.setTimeout(20 * 60_000);

const ROWS = REFUSED.filter((c) => c.native);
/** The baseline VPSs the rows change (the rest of the table's baseline is the dynamic lane's). */
const BASELINE_USED = Object.fromEntries(
  Object.entries(BASELINE).filter(([name]) =>
    ROWS.some((c) => c.base === name || name in (c.alongside ?? {}) || name in (c.behind ?? {})),
  ),
);

describeNative("yaml", "preview tells the truth on the native plugin: the table's native rows", () => {
  let existing: Lane | undefined;
  let fresh: Lane | undefined;
  const refused = new Map<string, Shown>();

  beforeAll(async () => {
    [existing, fresh] = await Promise.all([startLane("existing", "native"), startLane("new", "native")]);
    const [fixtures] = (await Promise.all([prepare(existing.emulator), prepare(fresh.emulator)])) as [
      Fixtures,
      Fixtures,
    ];
    const baseline = await operate(existing, { vpss: BASELINE_USED }, ["up", "--yes", "--skip-preview"]);
    if (baseline.failed) throw new Error(`the baseline up failed: ${JSON.stringify(baseline.diagnostics)}`);
    await Promise.all([
      inLanes(
        [fresh],
        ROWS.filter((c) => c.on === "new"),
        async (lane, c) => {
          refused.set(c.id, await operate(lane, caseSpec(c, refusedName(c), fixtures), ["up", "--yes"]));
        },
      ),
      inLanes(
        [existing],
        ROWS.filter((c) => c.on === "existing"),
        async (lane, c) => {
          const program = caseSpec(c, refusedName(c), fixtures, BASELINE_USED);
          refused.set(c.id, await operate(lane, program, ["up", "--yes"]));
        },
      ),
    ]);
  });

  afterAll(async () => {
    await Promise.all([closeLane(existing), closeLane(fresh)]);
  });

  test("the table marks rows of both kinds for the native plugin", () => {
    expect(ROWS.some((c) => c.on === "new") && ROWS.some((c) => c.on === "existing")).toBe(true);
    expect(refused.size).toBe(ROWS.length);
  });

  test.each(ROWS.map((c) => [c.id, c] as const))("refused: %s", (_id, c) => {
    expectRefused(c, refused.get(c.id)!);
  });
});
