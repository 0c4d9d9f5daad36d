/** The money model's counterexamples of issue 81 and after, replayed as named cases (named-case.ts). */
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { expect } from "@jest/globals";
import * as testing from "../../../provider/impl/testing";
import { UpCommand, ConcurrentCommand, OutsideCommand, type Edit, type Real } from "./commands";
import { grownJudgedBeforeOthers } from "./landings";
import { nextCommandName, ordersOf } from "./runs";
import { add, inTurn, moveBesideNew85004, NO_LIMIT, shrinkBesideNewL3, type NamedCase } from "./named-case";

export const NAMED_81: NamedCase[] = [
  {
    title:
      "a VPS grown by hand, then a run exactly on the budget that moves one VPS to New York (+$0.30), checked " +
      "first, and replaces the grown one by a cheaper one: the account is over its budget before the run ($15.00 " +
      "against $12.60) and still is at the move's turn ($15.30), so the preview refuses the move, and the bill and " +
      "the pack, judging each VPS at its turn in the same order, refuse it too, though the run would end at $12.60 " +
      "(I5; found with RIMU_MODEL_WITH=kill, seed 4242)",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCDALLAS")], { limit: "monthly", offsetCents: 0 }),
      new UpCommand(0, [{ op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false }, add("DCDALLAS")], {
        limit: "monthly",
        offsetCents: 1,
      }),
      new OutsideCommand({ kind: "resize", pick: 3 }),
      new UpCommand(
        0,
        [
          { op: "move twin", pick: 1, dbr: false },
          { op: "move", pick: 0, dcLocation: "DCNY", dbr: false },
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
    title:
      "a resize up (1 GB to 2 GB) checked before a resize down (1 GB to 512 MB), the run exactly on the budget " +
      "($18.00 to $21.00, $24.00 at the first VPS's turn): the preview refuses the growth, and the bill and the " +
      "pack, judging in the same order, refuse it too (I5)",
    stacks: 1,
    commands: [
      new UpCommand(
        0,
        [
          add("DCDALLAS", { memoryMb: 1024 } as Partial<Edit>),
          add("DCDALLAS", { memoryMb: 1024 } as Partial<Edit>),
        ],
        NO_LIMIT,
      ),
      new UpCommand(
        0,
        [
          { op: "resize", pick: 0, memoryMb: 2048 },
          { op: "resize", pick: 1, memoryMb: 512 },
        ],
        { limit: "monthly", offsetCents: 0 },
      ),
    ],
  },
  {
    title:
      "seed 81013 (I3): a VPS cancelled by hand while a run replaces another (Dallas to New York) and sets the " +
      "cancelled one's PTR name, a cent over the budget: the update of the cancelled VPS fails, not on the budget, " +
      "and the run cancels the order it replaced, which the engine would leave billed beside its replacement",
    stacks: 1,
    commands: [
      new UpCommand(0, [add("DCLONDON")], NO_LIMIT),
      new UpCommand(0, [add("DCDALLAS", { diskSpaceMb: 20480 } as Partial<Edit>)], NO_LIMIT),
      new UpCommand(
        0,
        [
          { op: "move twin", pick: 1, dbr: false },
          { op: "ptr", pick: 0 },
        ],
        { limit: "monthly", offsetCents: 1 },
        undefined,
        { kind: "cancel", pick: 0 },
      ),
    ],
  },
  ...(["dynamic", "native"] as const).map((front) => ({
    title:
      `${front === "native" ? "native plugin" : "dynamic Vps"}, seed 81016 (I3): a deleteBeforeReplace move whose ` +
      "cancellation fails (a 503), in a run that also replaces another VPS (Dallas to New York) and adds one " +
      "exactly on the budget: the run fails on the delete, and cancels the order it replaced, which the engine " +
      "would leave billed beside its replacement",
    stacks: 1,
    front,
    commands: [
      new UpCommand(0, [add("DCDALLAS"), add("DCDALLAS")], NO_LIMIT),
      new UpCommand(
        0,
        [
          { op: "move", pick: 1, dcLocation: "DCNY", dbr: false },
          { op: "move", pick: 0, dcLocation: "DCNY", dbr: true },
          add("DCLONDON"),
        ],
        { limit: "monthly", offsetCents: 0 },
        { route: "deleteVps", kind: "503" },
      ),
    ],
  })),
  {
    title:
      "seed 81014 (I3): two stacks at once, the budget at the boundary of s0's two new VPSs, while s1 grows its VPS " +
      "(512 MB to 2 GB), judged before s0's orders: the resize lands after s0's first order was read back and " +
      "before its second, which is withdrawn; the first stays, and the account is over the budget by what the " +
      'resize added, which I3 sets aside (docs/cost.md, "Several runs at once": resizes and moves)',
    stacks: 2,
    scheduler: inTurn([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 11, 14, 13, 15, 17, 16, 19, 20, 18, 21, 23, 22, 24, 25, 27, 26, 28,
      30, 29, 31, 32, 35, 34, 36, 37, 38, 39, 33, 40, 43, 41, 44, 42, 46, 45, 47, 48, 49,
    ]),
    commands: [
      new ConcurrentCommand([[], [add("DCLONDON")]], NO_LIMIT),
      new ConcurrentCommand(
        [
          [add("DCDALLAS", { provider: 1 } as Partial<Edit>), add("DCLONDON")],
          [{ op: "resize", pick: 0, memoryMb: 2048 }],
        ],
        { limit: "monthly", offsetCents: 0 },
        1,
      ),
    ],
  },
  {
    title:
      "issue 81 (I3): two stacks at once, each growing its VPS (512 MB to 2 GB), the budget at the boundary of s0's " +
      "program: each resize's guard judges it on a listing without the other's, both are made (a resize is never " +
      "withdrawn), and the account ends over the budget by the later one, which I3 sets aside, as it sets aside a " +
      'resize judged before another run\'s order (docs/cost.md, "Several runs at once": resizes and moves)',
    stacks: 2,
    commands: [
      new ConcurrentCommand([[add("DCLONDON")], [add("DCLONDON")]], NO_LIMIT),
      new ConcurrentCommand(
        [[{ op: "resize", pick: 0, memoryMb: 2048 }], [{ op: "resize", pick: 0, memoryMb: 2048 }]],
        { limit: "monthly", offsetCents: 0 },
        1,
      ),
    ],
    then: (real: Real) =>
      expect({
        grew: real.landings.filter((l) => l.kind === "grew").length,
        setAside: grownJudgedBeforeOthers(real.landings, 0, ordersOf(real.emu)),
      }).toEqual({ grew: 2, setAside: 990 }),
  },
  {
    title:
      "issue 81 (I3's set-aside): two stacks at once exactly on the budget, s0 ordering a VPS while s1 grows its " +
      "VPS (512 MB to 2 GB): s0's order lands first, and the resize's guard judges it on a listing that shows that " +
      "order, so what it added is the runs' to answer for, and I3 sets nothing aside (only growth judged before " +
      "another run's order landed is set aside)",
    stacks: 2,
    commands: [
      new ConcurrentCommand([[], [add("DCLONDON")]], NO_LIMIT),
      new ConcurrentCommand([[add("DCDALLAS")], [{ op: "resize", pick: 0, memoryMb: 2048 }]], {
        limit: "monthly",
        offsetCents: 0,
      }),
    ],
    then: (real: Real) => {
      const at = (kind: string, stack: string) =>
        real.landings.findIndex((l) => l.kind === kind && l.stack === stack);
      // The order the growth came after: the old rule set the growth aside for it.
      expect({
        s0OrderedBeforeS1Grew: at("order", "s0") >= 0 && at("order", "s0") < at("grew", "s1"),
        setAside: grownJudgedBeforeOthers(real.landings, 0, ordersOf(real.emu)),
      }).toEqual({ s0OrderedBeforeS1Grew: true, setAside: 0 });
    },
  },
  ...(["dynamic", "native"] as const).map((front) => ({
    title:
      `${front === "native" ? "native plugin" : "dynamic Vps"}, seed 85004 (I3): a VPS grown by hand (512 MB to ` +
      "1 GB) during a run that moves it (Dallas to Frankfurt, now a cheaper replacement) and adds one a cent under " +
      "the budget, registered first: " +
      (front === "native"
        ? "the update's check refuses the new VPS, and the engine registers nothing after it (nothing replaced)"
        : "the guard refuses the new VPS before the move is checked, the replacement is ordered after, and the " +
          "failing run's cancellation of the order it replaced is answered with a 503: read still billed, it is " +
          "asked once more, and the account ends within the budget"),
    stacks: 1,
    front,
    commands: [
      new UpCommand(0, [add("DCDALLAS", { diskSpaceMb: 20480 } as Partial<Edit>)], {
        limit: "monthly",
        offsetCents: 1,
      }),
      moveBesideNew85004(0, [5, 0, 0, 0, 0, 0]),
    ],
  })),
  {
    // On the dynamic Vps the new VPS's guard judges it before the move's order here, so nothing is replaced yet.
    title:
      "native plugin, beside seed 85004 (I3): a move (Dallas to Frankfurt) registered first and ordered, then the " +
      "check of a new VPS refuses it because another VPS was grown by hand during the run: the failing run's " +
      "cancellation of the order it replaced is answered with a 503, and asked once more once read still billed",
    stacks: 1,
    front: "native",
    commands: [
      new UpCommand(0, [add("DCDALLAS", { diskSpaceMb: 20480 } as Partial<Edit>), add("DCDALLAS")], NO_LIMIT),
      moveBesideNew85004(1, [0, 1, 5, 0, 0, 0]),
    ],
  },
  ...(["dynamic", "native"] as const).map((front) => ({
    title:
      `${front === "native" ? "native plugin" : "dynamic Vps"}: a create whose outcome is unknown (its connection ` +
      "dropped before the order; RIMU_ERR_CREATE_OUTCOME_UNKNOWN) under a budget: the next `up`'s check prices the " +
      "pending create as the new VPS its update orders (no order, active or cancelled, carries its nonce), not as " +
      "an order it cannot find, so the VPS is ordered and in the state",
    stacks: 1,
    front,
    commands: [
      new UpCommand(
        0,
        [add("DCDALLAS")],
        { limit: "monthly", offsetCents: 0 },
        { route: "createVps", kind: "drop" },
      ),
    ],
    then: (real: Real) => {
      const billed = ordersOf(real.emu).map((o) => o.oid);
      expect({ billed: billed.length, held: [...real.stacks[0]!.orderOids()] }).toEqual({
        billed: 1,
        held: billed,
      });
    },
  })),
  ...(["dynamic", "native"] as const).map((front) => ({
    title:
      `${front === "native" ? "native plugin" : "dynamic Vps"}, seed 81014 (I1): a move (London to Dallas) whose ` +
      "order's outcome is unknown (a dropped connection), exactly on the budget: the engine records the " +
      "replacement as a pending create and the replaced order as a pending delete, so the failing run cancels that " +
      "order, and the next preview, which prices the pending create as new, does not count it beside it",
    stacks: 1,
    front,
    commands: [
      new UpCommand(0, [add("DCLONDON")], { limit: "monthly", offsetCents: 0 }),
      new UpCommand(
        0,
        [{ op: "move", pick: 0, dcLocation: "DCDALLAS", dbr: false }],
        { limit: "monthly", offsetCents: 0 },
        { route: "createVps", kind: "drop" },
      ),
      new UpCommand(0, [{ op: "ptr", pick: 0 }], { limit: "monthly", offsetCents: 5000 }),
    ],
  })),
  {
    title:
      "seed 83009 (I5): a preview of three new VPSs, one on the explicit provider, a cent over the increase one " +
      "run may add, whose shared plan's file (named by the engine's address, used again) holds a finished " +
      "command's check of the same VPS: the new VPS's check takes nothing of that entry (its fee now, its order), " +
      "so it counts as new, not as a shrink, and the preview refuses the program, as the bill and the pack do",
    stacks: 1,
    front: "native",
    before: () => {
      const file = testing.sharedPlanFileOf(nextCommandName());
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // As the search's earlier process on the same emulator port left it, 2 hours before (its pid long gone): its
      // vps-1, a $9.90 order it left as it was.
      const finished = { key: "model/s0/vps-1", writer: "4194305/finished", at: Date.now() - 7_200_000 };
      const fee = { name: "vps-1", nowCents: 990, after: { cents: 990 } };
      fs.appendFileSync(file, `${JSON.stringify({ ...finished, fee, order: 2015464403 })}\n`);
    },
    commands: [
      new UpCommand(
        0,
        [
          add("DCFRANKFURT", { provider: 1, dbr: true } as Partial<Edit>),
          add("DCLONDON"),
          add("DCFRANKFURT", { diskSpaceMb: 20480, dbr: true } as Partial<Edit>),
        ],
        { limit: "increase", offsetCents: -1 },
      ),
    ],
  },
  {
    title:
      "native plugin: the L3 race (a shrink and a new VPS exactly on the budget, the update registering the new VPS " +
      "first) on an account whose previewed plan's file holds an earlier command's update, whose engine run had " +
      "the name (the engine's address) this preview gets: that update's mark is not this preview's, so the update " +
      "still waits for the shrink its preview planned, and completes (I1)",
    stacks: 1,
    front: "native",
    before: () => {
      const file = testing.previewedPlanFileOf("model/s0");
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // As an earlier process on the same emulator port left it, 2 hours before (its pid long gone): the update of
      // its command named as the second up's preview here is (the first up's preview and update come before).
      const tag = createHash("sha256").update(nextCommandName(2)).digest("hex").slice(0, 16);
      const finished = { writer: "4194305/finished", at: Date.now() - 7_200_000 };
      fs.appendFileSync(file, `${JSON.stringify({ key: "", update: tag, ...finished })}\n`);
    },
    commands: shrinkBesideNewL3(),
  },
];
