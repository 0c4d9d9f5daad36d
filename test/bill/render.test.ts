/**
 * The bill of a preview (provider/bill/): which steps are VPSs and what each change costs, the totals, the
 * budget's verdict, the Markdown, and the messages for a file that is not a preview's JSON. The previews here are
 * written by hand in the shape `pulumi preview --json` prints (test/engine/bill.test.ts records real ones through
 * the CLI and checks the fees against the emulator).
 */
import { billOf, DYNAMIC_VPS_TYPE, NATIVE_VPS_TYPE } from "../../provider/bill/bill";
import { BILL_MARKER, renderBill } from "../../provider/bill/markdown";
import { NotPreviewJsonError, parsePreviewJson, type PreviewDigest } from "../../provider/bill/preview-json";
import { billTableRows as rows } from "../helpers/bill-table";

const STACK = "urn:pulumi:prod::shop";
const urn = (name: string, type = NATIVE_VPS_TYPE) => `${STACK}::${type}::${name}`;

interface VpsSpec {
  name: string;
  op: string;
  type?: string;
  /** The recorded fee (old state's monthlyFeeUsd). */
  fee?: number;
  /** The check result's plannedMonthlyFeeUsd. */
  planned?: number;
  old?: Record<string, unknown>;
  news?: Record<string, unknown>;
  diff?: string[];
}

/** A step as the CLI prints it: old state for what existed, new state (the checked inputs) for what will. */
function step(spec: VpsSpec): NonNullable<PreviewDigest["steps"]>[number] {
  const type = spec.type ?? NATIVE_VPS_TYPE;
  const u = urn(spec.name, type);
  const hasOld = spec.op !== "create";
  const hasNew = spec.op !== "delete";
  return {
    op: spec.op,
    urn: u,
    ...(hasOld && {
      oldState: {
        urn: u,
        type,
        inputs: { ...spec.old },
        outputs: { ...spec.old, ...(spec.fee !== undefined && { monthlyFeeUsd: spec.fee }) },
      },
    }),
    ...(hasNew && {
      newState: {
        urn: u,
        type,
        inputs: { ...spec.news, ...(spec.planned !== undefined && { plannedMonthlyFeeUsd: spec.planned }) },
      },
    }),
    ...(spec.op === "update" && { diffReasons: spec.diff ?? [] }),
    ...(spec.op === "replace" && { replaceReasons: spec.diff ?? [] }),
  };
}

const stackStep = { op: "same", urn: `${STACK}::pulumi:pulumi:Stack::shop-prod` };

/** A preview with these VPS steps, the unchanged ones shown (--show-sames), and config. */
function preview(
  specs: VpsSpec[],
  config: Record<string, string> = {},
  extra: Partial<PreviewDigest> = {},
): PreviewDigest {
  const steps = [stackStep, ...specs.map(step)];
  const summary: Record<string, number> = {};
  for (const s of steps) summary[s.op] = (summary[s.op] ?? 0) + 1;
  return { config: { "rimuhosting:apiKey": "[secret]", ...config }, steps, changeSummary: summary, ...extra };
}

const FLEET: VpsSpec[] = [
  {
    name: "web",
    op: "update",
    fee: 10,
    planned: 16,
    old: { memoryMb: 1024 },
    news: { memoryMb: 2048 },
    diff: ["memoryMb"],
  },
  {
    name: "db",
    op: "replace",
    fee: 10,
    planned: 11,
    old: { dcLocation: "DCDALLAS" },
    news: { dcLocation: "DCLONDON" },
    diff: ["dcLocation"],
  },
  { name: "old", op: "delete", fee: 12.5 },
  { name: "api", op: "create", planned: 10 },
  { name: "cache", op: "same", fee: 8, planned: 8 },
];

describe("the bill's table", () => {
  test("each change with its fee before and after, the unchanged VPSs in one row, and the stack's totals", () => {
    const markdown = renderBill(billOf(preview(FLEET)));
    expect(
      markdown.startsWith(`${BILL_MARKER}\n### RimuHosting bill for stack \`prod\` (project \`shop\`)\n`),
    ).toBe(true);
    expect(rows(markdown)).toEqual(
      new Map([
        ["web", ["resize: memoryMb 1024 → 2048", "$10.00", "$16.00", "+$6.00"]],
        ["db", ["replace: dcLocation DCDALLAS → DCLONDON", "$10.00", "$11.00", "+$1.00"]],
        ["old", ["delete", "$12.50", "—", "-$12.50"]],
        ["api", ["create", "—", "$10.00", "+$10.00"]],
        ["1 unchanged VPS", ["", "$8.00", "$8.00", "±$0.00"]],
        ["Stack total", ["", "$40.50", "$45.00", "+$4.50"]],
      ]),
    );
  });

  test("deletes and replacements: the fee that stops, and why the preview cannot give the credit", () => {
    const markdown = renderBill(billOf(preview(FLEET)));
    expect(markdown).toContain(
      "**Credits.** This run cancels `db` (replaced, $10.00 a month), `old` (deleted, $12.50 a month): each one's fee stops",
    );
    expect(markdown).toMatch(
      /cannot tell the amount: it depends on how far each order is paid, which the stack's state does not record/,
    );
    expect(renderBill(billOf(preview([FLEET[0]!, FLEET[3]!])))).not.toContain("**Credits.**");
  });

  test("the dynamic Vps counts as a VPS; other resources, and other dynamic resources, do not", () => {
    const digest = preview([
      { name: "dyn", op: "create", type: DYNAMIC_VPS_TYPE, planned: 9.57 },
      {
        name: "generic",
        op: "create",
        type: "pulumi-nodejs:dynamic:Resource",
        planned: 5,
        news: { __provider: 'exports.handler = require("pulumi-rimuhosting/shim")' },
      },
      {
        name: "other-dynamic",
        op: "create",
        type: "pulumi-nodejs:dynamic:Resource",
        planned: 99,
        news: { __provider: "exports.handler = {}" },
      },
      { name: "pet", op: "create", type: "random:index:RandomPet", planned: 99 },
    ]);
    expect([...rows(renderBill(billOf(digest))).keys()]).toEqual(["dyn", "generic", "Stack total"]);
  });

  test("a fee the preview could not quote is shown as not known, with the provider's reason, and the totals say so", () => {
    const digest = preview([
      {
        name: "web",
        op: "update",
        fee: 10,
        old: { memoryMb: 1024 },
        news: { memoryMb: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" },
        diff: ["memoryMb"],
      },
      { name: "api", op: "create", planned: 10 },
    ]);
    digest.diagnostics = [
      {
        urn: urn("web"),
        severity: "info",
        message: "web: resize 1024 → 0 MB: price not quoted: memoryMb not known until the update runs.\n",
      },
    ];
    const markdown = renderBill(billOf(digest));
    const table = rows(markdown);
    expect(table.get("web")).toEqual(["resize: memoryMb (known after up)", "$10.00", "not known [1]", ""]);
    expect(table.get("Stack total")).toEqual(["", "$10.00", "at least $10.00", "+$10.00"]);
    expect(markdown).toContain(
      "[1] `web`: the fee after this run is not known: memoryMb not known until the update runs.",
    );
  });

  test("an update of an input that is not priced keeps the recorded fee (a provider without plannedMonthlyFeeUsd)", () => {
    const digest = preview([
      {
        name: "web",
        op: "update",
        fee: 10,
        old: { reverseDns: "a.example.com" },
        news: { reverseDns: "b.example.com" },
        diff: ["reverseDns"],
      },
    ]);
    expect(rows(renderBill(billOf(digest))).get("web")).toEqual([
      "update: reverseDns a.example.com → b.example.com",
      "$10.00",
      "$10.00",
      "±$0.00",
    ]);
  });

  test("without --show-sames the totals cover the changed VPSs and say how to get the stack's", () => {
    const digest = preview([FLEET[0]!]);
    digest.changeSummary = { ...digest.changeSummary, same: 3 }; // two unchanged resources not listed
    const markdown = renderBill(billOf(digest));
    expect(rows(markdown).get("Changed VPSs")).toEqual(["", "$10.00", "$16.00", "+$6.00"]);
    expect(markdown).toContain("Run `pulumi preview --json --show-sames` for the stack's totals.");
  });

  test("names and values that would break the table are escaped", () => {
    const digest = preview([{ name: "a|b`c", op: "create", planned: 1 }]);
    expect(renderBill(billOf(digest))).toContain("| ``a\\|b`c`` | create |");
  });

  test("a preview that changes no VPS says so", () => {
    expect(renderBill(billOf(preview([])))).toContain("This preview changes no VPS, and lists none.");
  });

  test("a failed preview: its errors first, in a block no message can close", () => {
    const digest = preview(
      [FLEET[3]!],
      {},
      {
        diagnostics: [
          { severity: "error", message: "api: [RIMU_ERR_INVALID_INPUT] distro ``` is not offered\n" },
        ],
      },
    );
    const markdown = renderBill(billOf(digest));
    expect(markdown).toContain(
      "**The preview failed**; the bill lists what it got to before it stopped:\n\n````text\napi: [RIMU_ERR_INVALID_INPUT] distro ``` is not offered\n````",
    );
  });
});

describe("the budget's verdict", () => {
  const verdict = (config: Record<string, string>, extra: Partial<PreviewDigest> = {}) =>
    billOf(preview(FLEET, config, extra)).budget;

  test("within both limits: passes, with the figures", () => {
    const v = verdict({ "rimuhosting:monthlyBudgetUsd": "50", "rimuhosting:maxMonthlyIncreaseUsd": "17" });
    expect(v.status).toBe("pass");
    expect(v.lines).toEqual([
      "Monthly budget $50.00 (rimuhosting:monthlyBudgetUsd): the stack's VPSs cost $45.00 a month after this run, within it ($5.00 to spare).",
      "Largest increase $17.00 a month (rimuhosting:maxMonthlyIncreaseUsd): this run adds $17.00 a month (new VPSs and growing changes; shrinks and deletes are not netted), within it.",
    ]);
  });

  test("over the monthly budget, or over the largest increase: fails", () => {
    expect(verdict({ "rimuhosting:monthlyBudgetUsd": "44.99" }).status).toBe("fail");
    expect(verdict({ "rimuhosting:monthlyBudgetUsd": "45" }).status).toBe("pass");
    // The increase counts what the run adds (+$6, +$1, +$10), as the provider does: the delete's $12.50 is not netted.
    const v = verdict({ "rimuhosting:maxMonthlyIncreaseUsd": "16.99" });
    expect(v.status).toBe("fail");
    expect(v.lines[0]).toContain(
      "this run adds $17.00 a month (new VPSs and growing changes; shrinks and deletes are not netted), $0.01 over it",
    );
  });

  test("an adopted VPS is billed already: its fee is in the totals before and after, and adds nothing", () => {
    const adopted: VpsSpec = { name: "kept", op: "create", news: { adoptOrderOid: 123 }, planned: 10 };
    const bill = billOf(preview([adopted], { "rimuhosting:maxMonthlyIncreaseUsd": "5" }));
    expect(bill.budget.status).toBe("pass");
    expect(rows(renderBill(bill)).get("kept")).toEqual(["create", "$10.00", "$10.00", "±$0.00"]);
  });

  test("advisory enforcement turns a failure into a warning", () => {
    const config = { "rimuhosting:monthlyBudgetUsd": "40", "rimuhosting:budgetEnforcement": "warn" };
    expect(verdict(config).status).toBe("warn");
  });

  test("the provider's budget error in a failed preview fails the verdict and is quoted", () => {
    const message =
      "[RIMU_ERR_BUDGET] the VPSs would cost $45.00 a month, over rimuhosting:monthlyBudgetUsd $40.00";
    const bill = billOf(
      preview(
        FLEET.slice(0, 1),
        { "rimuhosting:monthlyBudgetUsd": "40" },
        {
          diagnostics: [{ severity: "error", message: `${message}\n` }],
        },
      ),
    );
    expect(bill.budget.status).toBe("fail");
    expect(bill.budget.providerMessages).toEqual([message]);
    expect(bill.previewErrors).toEqual([]);
    const markdown = renderBill(bill);
    expect(markdown).toContain(`The provider's verdict in the preview:\n\n\`\`\`text\n${message}\n\`\`\``);
    // The preview stopped at the budget's error: the sum is of the VPSs it got to, and the bill says so.
    expect(markdown).toContain(
      "**The preview failed on the budget** (below); the bill lists what it got to before it stopped.",
    );
    expect(rows(markdown).get("Listed VPSs")).toEqual(["", "$10.00", "$16.00", "+$6.00"]);
  });

  test("what the bill cannot judge it says so: hidden unchanged VPSs, a value that is not an amount", () => {
    const digest = preview(FLEET, { "rimuhosting:monthlyBudgetUsd": "50" });
    digest.changeSummary = { ...digest.changeSummary, same: 5 };
    const hidden = billOf(digest).budget;
    expect(hidden.status).toBe("unjudged");
    expect(hidden.lines[0]).toMatch(
      /not judged here, the preview's JSON leaves out the unchanged VPSs \(run it with --show-sames\)/,
    );
    const bad = verdict({ "rimuhosting:maxMonthlyIncreaseUsd": "ten" });
    expect(bad.status).toBe("unjudged");
    expect(bad.lines[0]).toBe(
      'rimuhosting:maxMonthlyIncreaseUsd is "ten", which is not an amount of USD (a number such as 50): the bill cannot judge it.',
    );
  });

  test("no budget set: says how to set one", () => {
    const markdown = renderBill(billOf(preview(FLEET)));
    expect(markdown).toContain(
      "**Budget: no budget set.** Set one with `pulumi config set rimuhosting:monthlyBudgetUsd <USD>`",
    );
  });
});

describe("reading the preview's JSON", () => {
  const message = (text: string): string => {
    try {
      parsePreviewJson(text, "preview.json");
    } catch (error) {
      expect(error).toBeInstanceOf(NotPreviewJsonError);
      return (error as Error).message;
    }
    throw new Error("parsed");
  };
  const HOW = "make it with `pulumi preview --json --show-sames > preview.json`";

  test("fields it does not know pass; what it reads must have its type", () => {
    const digest = parsePreviewJson(
      JSON.stringify({ ...preview(FLEET), duration: 1, newField: { x: 1 } }),
      "f",
    );
    expect(digest.steps).toHaveLength(FLEET.length + 1);
    expect(message('{"steps":[{"op":"create"}]}')).toBe(
      `preview.json is not the JSON of a preview as the bill knows it: steps[0].urn: Invalid input: expected string, received undefined. rimuhosting-bill reads what \`pulumi preview --json\` prints; ${HOW} (--show-sames lets the bill add up the whole stack).`,
    );
  });

  test("each kind of wrong file is named, with how to make the right one", () => {
    expect(message("")).toContain(
      `preview.json is empty. rimuhosting-bill reads what \`pulumi preview --json\` prints; ${HOW}`,
    );
    expect(message("Previewing update (prod):\n")).toContain(
      "preview.json is not JSON; it starts with: Previewing update (prod):.",
    );
    expect(message('{"sequence":1,"timestamp":2}\n{"sequence":2,"timestamp":3}\n')).toContain(
      "is one JSON value per line (an engine event stream",
    );
    expect(message('{"version":3,"deployment":{}}')).toContain(
      "is the output of `pulumi stack export` (the stack's state), not a preview",
    );
    expect(message("[]")).toContain("is a JSON array");
    expect(message('{"name":"x"}')).toContain(
      "is a JSON object with none of a preview's fields (it has name)",
    );
  });
});
