/**
 * I3's set-aside (docs/cost.md, "Several runs at once"), on landings written out by hand: what a resize added is set
 * aside only when another stack's change that stays landed between the listing it was judged on and it, and only
 * while the grown VPS itself is still billed at the end (a VPS cancelled since adds nothing to the end's account).
 */
import { grownJudgedBeforeOthers, type Landing } from "./model/landings";

const seen = (...oids: number[]) => oids.map((oid) => ({ oid, cents: 0, domain: `vps-${oid}` }));

describe("I3's set-aside of a resize judged before another stack's order", () => {
  // s1's call 7 lists the account, s0's order 2 lands, then s1's resize of order 1 (judged without it) lands.
  const landings: Landing[] = [
    { kind: "listed", stack: "s1", call: 7 },
    { kind: "order", stack: "s0", oid: 2 },
    { kind: "grew", stack: "s1", oid: 1, cents: 990, call: 7 },
  ];

  it("sets aside what the resize added while both orders stay billed", () => {
    expect(grownJudgedBeforeOthers(landings, 0, seen(1, 2))).toBe(990);
  });

  it("sets nothing aside once the grown VPS is cancelled: it adds nothing to the account at the end", () => {
    expect(grownJudgedBeforeOthers(landings, 0, seen(2))).toBe(0);
  });

  it("sets nothing aside when the other stack's order is gone at the end", () => {
    expect(grownJudgedBeforeOthers(landings, 0, seen(1))).toBe(0);
  });

  it("sets nothing aside when the resize was judged on a listing that shows the order", () => {
    const judgedAfter: Landing[] = [landings[1]!, landings[0]!, landings[2]!];
    expect(grownJudgedBeforeOthers(judgedAfter, 0, seen(1, 2))).toBe(0);
  });
});
