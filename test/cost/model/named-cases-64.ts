/** The money model's counterexamples of issue 64, replayed as named cases (named-case.ts). */
import { UpCommand, ConcurrentCommand, OutsideCommand, type Edit } from "./commands";
import { add, inTurn, NO_LIMIT, oneAtATime, shrinkBesideNewL3, type NamedCase } from "./named-case";

export const NAMED_64: NamedCase[] = [
  {
    title:
      "commit seed 20795902 (I5): two stacks' runs at once, the budget at the boundary of s0's program, s0's order " +
      "placed while s1's preview runs: s1's preview reads an account that is no longer its stack's, so the bill " +
      "and the pack, which judge the stack, are not compared with it",
    stacks: 2,
    scheduler: inTurn([2, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 3, 13, 14, 15]),
    commands: [
      new ConcurrentCommand(
        [
          [add("DCLONDON", { provider: 1 } as Partial<Edit>)],
          [add("DCDALLAS", { provider: 1 } as Partial<Edit>)],
        ],
        { limit: "monthly", offsetCents: 0 },
        1,
      ),
    ],
  },
  {
    title:
      "seed 8808 (I1): a run refused on the budget after a VPS it replaces was grown by hand during it leaves the " +
      "replaced order billed within the budget; the next run's preview counts it, and the engine deletes it first: " +
      "so a run failing under a limit cancels the orders it replaced at once, as the next `up` would",
    stacks: 1,
    commands: [
      new UpCommand(
        0,
        [{ op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false }, add("DCLONDON")],
        { limit: "increase", offsetCents: 0 },
        { route: "createVps", kind: "429" },
        { kind: "resize", pick: 0 },
      ),
      new UpCommand(
        0,
        [
          { op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false },
          add("DCLONDON", { memoryMb: 2048, provider: 1 } as Partial<Edit>),
        ],
        { limit: "monthly", offsetCents: 0 },
        undefined,
        { kind: "resize", pick: 0 },
      ),
      new UpCommand(0, [{ op: "move twin", pick: 0, dbr: false }, add("DCDALLAS")], {
        limit: "monthly",
        offsetCents: 0,
      }),
    ],
  },
  {
    title:
      "seed 2202 (I3): a new VPS of the explicit provider lost to a dropped connection, registered first, while " +
      "the default provider replaces a VPS exactly on the budget: the run fails on the fault, not the budget, and " +
      "cancels the order it replaced (the account over the budget beside an order by hand), as after a refusal",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCLONDON", { memoryMb: 2048 } as Partial<Edit>)], NO_LIMIT, undefined, {
        kind: "resize",
        pick: 0,
      }),
      new UpCommand(
        0,
        [{ op: "move twin", pick: 0, dbr: false }, add("DCLONDON", { provider: 1 } as Partial<Edit>)],
        { limit: "monthly", offsetCents: 0 },
        { route: "createVps", kind: "drop" },
        undefined,
        undefined,
        [1, 0],
      ),
    ],
  },
  ...(["dynamic", "native"] as const).map((front) => ({
    title:
      `${front === "native" ? "native plugin" : "dynamic Vps"}, seed 3303 (I3): a VPS grown by hand (1 to 2 GB) ` +
      "while the run shrinks it to 512 MB and adds one exactly on the budget: the run ends on its figure, and I3 " +
      "sets aside what the change by hand added when it was made, not the run's shrink of that VPS",
    stacks: 1,
    front,
    commands: [
      new UpCommand(
        0,
        [add("DCDALLAS", { memoryMb: 1024, provider: 1 } as Partial<Edit>)],
        { limit: "monthly", offsetCents: 5000 },
        { route: "createVps", kind: "429" },
        { kind: "order", pick: 0, beforeOrder: 0 },
      ),
      new UpCommand(
        0,
        [add("DCLONDON", { provider: 1 } as Partial<Edit>), { op: "resize", pick: 0, memoryMb: 512 }],
        { limit: "monthly", offsetCents: 0 },
        undefined,
        { kind: "resize", pick: 0 },
      ),
    ],
  })),
  {
    title:
      "seed 7707 (I5): a program adopting its own VPS, grown by hand since (an order the state holds under another " +
      "name), with no limit: the preview refuses the adoption, which is no verdict on the budget, so the bill and " +
      "the pack are not compared with it",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCDALLAS")], { limit: "monthly", offsetCents: 0 }),
      new OutsideCommand({ kind: "resize", pick: 0 }),
      new UpCommand(0, [{ op: "adopt", pick: 0 }], NO_LIMIT),
    ],
  },
  {
    title:
      "case 1: a same-price move with deleteBeforeReplace and maxMonthlyIncreaseUsd 0 passes the preview and up, " +
      "the replacement counted against the order the run cancelled first",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCLONDON", { dbr: true } as Partial<Edit>)], NO_LIMIT),
      new UpCommand(0, [{ op: "move", pick: 0, dcLocation: "DCFRANKFURT", dbr: true }], {
        limit: "increase",
        offsetCents: 0,
      }),
    ],
  },
  {
    title:
      "case 6: a replacement that shrinks (provider 0) and a new VPS (provider 1) landing on the budget: the " +
      "guard counts the other provider's planned shrink, as the preview did",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCFRANKFURT")], NO_LIMIT),
      new UpCommand(
        0,
        [
          { op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false },
          add("DCDALLAS", { provider: 1 } as Partial<Edit>),
        ],
        { limit: "monthly", offsetCents: 0 },
      ),
    ],
  },
  {
    title:
      "I3: s1 moves a VPS (a replacement) and adds one while s0 orders one, all on the account budget less a cent: " +
      "the run that fails on the budget cancels the order it replaced, which the engine would leave billed",
    stacks: 2,
    commands: [
      new UpCommand(1, [add("DCDALLAS")], NO_LIMIT),
      new UpCommand(
        1,
        [
          { op: "move", pick: 0, dcLocation: "DCNY", dbr: false },
          add("DCDALLAS"),
          { op: "resize", pick: 0, memoryMb: 512 },
        ],
        { limit: "both", offsetCents: -1 },
      ),
      new ConcurrentCommand([[add("DCDALLAS")], []], { limit: "monthly", offsetCents: -1 }),
    ],
  },
  {
    title:
      "case 4: a replacement (Dallas to London) withdrawn because an order by hand landed between its listing and its " +
      "order, in a run that also creates a VPS: the replaced order counts again, so the new VPS is refused, and the " +
      "old VPS, which the state still holds, stays billed",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCDALLAS", { memoryMb: 1024 } as Partial<Edit>)], NO_LIMIT),
      new UpCommand(
        0,
        [{ op: "move", pick: 0, dcLocation: "DCLONDON", dbr: false }, add("DCDALLAS")],
        { limit: "monthly", offsetCents: 0 },
        undefined,
        { kind: "order", pick: 0, beforeOrder: 0 },
      ),
    ],
  },
  {
    title:
      "a VPS of the explicit provider grown by hand as a run moves it to Dallas (a cheaper replacement) and adds " +
      "one on the default provider, its budget a cent over the program: the new VPS is refused, so the run fails, " +
      "and the order the other provider replaced is cancelled, which the engine would leave billed beside its " +
      "replacement",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCLONDON", { provider: 1 } as Partial<Edit>), { op: "ptr", pick: 0 }], {
        limit: "monthly",
        offsetCents: 1,
      }),
      new UpCommand(
        0,
        [{ op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false }, add("DCDALLAS")],
        { limit: "monthly", offsetCents: 1 },
        undefined,
        { kind: "resize", pick: 0 },
      ),
    ],
  },
  {
    title:
      "a deleteBeforeReplace move (Dallas to New York) and a new VPS landing on the budget: the create's listing, " +
      "read while the delete ran, still shows the cancelled order, which is counted there and not again",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCDALLAS")], NO_LIMIT),
      new UpCommand(0, [{ op: "move twin", pick: 0, dbr: true }, add("DCLONDON")], {
        limit: "monthly",
        offsetCents: 0,
      }),
    ],
  },
  {
    title:
      "a same-price replacement (London to Frankfurt) on an account already a cent over its budget: it adds " +
      "nothing, so the rule after an order does not withdraw it, as the preview and the guard let it through",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCLONDON")], NO_LIMIT),
      new UpCommand(0, [{ op: "move twin", pick: 0, dbr: false }], { limit: "monthly", offsetCents: -1 }),
    ],
  },
  {
    title:
      "a VPS grown by hand (512 to 1024 MB) and then moved by a run whose budget is a cent under the program: the " +
      "run lowers the account ($9.00 to $6.30), which is never blocked, even over the budget (I3 counts from there)",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCDALLAS")], NO_LIMIT),
      new OutsideCommand({ kind: "resize", pick: 0 }),
      new UpCommand(0, [{ op: "move twin", pick: 0, dbr: false }], { limit: "monthly", offsetCents: -1 }),
    ],
  },
  {
    title:
      "a VPS grown by hand (512 to 1024 MB) whose disk the program grows: the preview prices the disk on the live " +
      "memory, which the update leaves as it is (I6), and the account ends at the preview's figure",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCDALLAS")], NO_LIMIT),
      new OutsideCommand({ kind: "resize", pick: 0 }),
      new UpCommand(0, [{ op: "grow disk", pick: 0 }, add("DCDALLAS", { provider: 1 } as Partial<Edit>)], {
        limit: "monthly",
        offsetCents: 5000,
      }),
    ],
  },
  {
    title:
      "a VPS grown by hand while a run replaces it with a cheaper one, its budget a cent under the program: the " +
      "run lowers the account, and I3 counts the grown order at its fee before the run",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCLONDON"), { op: "grow disk", pick: 0 }], { limit: "monthly", offsetCents: 1 }),
      new UpCommand(
        0,
        [{ op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false }],
        { limit: "monthly", offsetCents: -1 },
        undefined,
        { kind: "resize", pick: 0 },
      ),
    ],
  },
  {
    title:
      "a replacement (Dallas to its twin) whose order's answer is lost and found again by its token, in a run that " +
      "adds a VPS on the other provider exactly on the budget: the found order is judged as an order (its replaced " +
      "order not counted beside it), so the new VPS fits and the replaced order is cancelled",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCDALLAS", { memoryMb: 1024 } as Partial<Edit>)], NO_LIMIT),
      new UpCommand(
        0,
        [{ op: "move twin", pick: 0, dbr: false }, add("DCDALLAS", { provider: 1 } as Partial<Edit>)],
        { limit: "monthly", offsetCents: 0 },
        { route: "createVps", kind: "drop-after-commit" },
      ),
    ],
  },
  {
    title:
      "an order withdrawn by the rule after an order (one by hand landed just before it, exactly on the budget) whose " +
      "cancellation's answer is lost after it was made: the account read again shows it gone, so the create fails " +
      "and no state holds it (I4)",
    stacks: 1,
    commands: [
      new UpCommand(
        0,
        [add("DCLONDON")],
        { limit: "monthly", offsetCents: 0 },
        { route: "deleteVps", kind: "drop-after-commit" },
        { kind: "order", pick: 0, beforeOrder: 0 },
      ),
    ],
  },
  ...(["dynamic", "native"] as const).map((front) => ({
    title:
      `${front === "native" ? "native plugin" : "dynamic Vps"}: a shrink (2 GB to 1 GB) and a new 1 GB VPS exactly ` +
      "on the budget, the update registering the new VPS first, its step started at once: its create is judged " +
      "before the shrink its preview counted is checked, and waits for that check (L3, the race that broke I1)",
    stacks: 1,
    front,
    commands: shrinkBesideNewL3(),
  })),
  {
    title:
      "native plugin: a same-price move (London to Frankfurt) and a new VPS exactly on the budget, a VPS grown by " +
      "hand just before the update, which registers them in the preview's order, one call at a time: the " +
      "replacement is made before the new VPS's check refuses it, so the check cancels the replaced order at once " +
      "(I3), as the guard does after a refusal",
    stacks: 1,
    front: "native",
    scheduler: oneAtATime,
    commands: [
      new UpCommand(0, [add("DCLONDON"), add("DCLONDON", { memoryMb: 2048 } as Partial<Edit>)], {
        limit: "monthly",
        offsetCents: 0,
      }),
      new UpCommand(
        0,
        [{ op: "move twin", pick: 1, dbr: false }, add("DCLONDON")],
        { limit: "monthly", offsetCents: 0 },
        undefined,
        { kind: "resize", pick: 0 },
        undefined,
        [0, 0, 0, 0, 0, 0],
      ),
    ],
  },
  {
    with: ["native-providers"],
    title:
      "native plugin: a VPS moved to Dallas (a cheaper replacement, default provider) beside a new VPS of the " +
      "explicit provider exactly on the budget, the update registering them in the preview's order, each step " +
      "started after its check: the new VPS's check lists the account before the replacement's order and reads the " +
      "shared plan after that change was made, which the plan keeps, marked made, so it is counted once and the new " +
      "VPS fits (I1)",
    stacks: 1,
    front: "native",
    scheduler: oneAtATime,
    commands: [
      new UpCommand(0, [add("DCLONDON")], NO_LIMIT),
      new UpCommand(
        0,
        [
          { op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false },
          add("DCDALLAS", { provider: 1 } as Partial<Edit>),
        ],
        { limit: "monthly", offsetCents: 0 },
        undefined,
        undefined,
        undefined,
        [0, 0, 0, 0, 0, 0],
      ),
    ],
  },
  {
    with: ["native-providers"],
    title:
      "native plugin: a VPS of the explicit provider moved to Dallas (a cheaper replacement) and a new VPS of the " +
      "default provider exactly on the budget, the update registering the new VPS first: its create is judged " +
      "before the other provider's shrink is checked, and waits for that check, which the shared plan shows (I1)",
    stacks: 1,
    front: "native",
    scheduler: oneAtATime,
    commands: [
      new UpCommand(0, [add("DCLONDON", { provider: 1 } as Partial<Edit>)], NO_LIMIT),
      new UpCommand(
        0,
        [{ op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false }, add("DCLONDON")],
        { limit: "monthly", offsetCents: 0 },
        undefined,
        undefined,
        undefined,
        [3, 0, 0, 0, 0, 0],
      ),
    ],
  },
];
