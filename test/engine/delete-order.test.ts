import { deleteOrder } from "./delete-order";

const node = (urn: string, dependencies: string[] = [], parent = "") => ({ urn, dependencies, parent });

describe("deleteOrder", () => {
  test("deletes dependents before what they depend on, whatever the registration order", () => {
    const nodes = [
      node("stack"),
      node("db", [], "stack"),
      node("web", ["db"], "stack"),
      node("cache", [], "stack"),
    ];
    const order = deleteOrder(nodes).map((n) => n.urn);
    expect(order.indexOf("web")).toBeLessThan(order.indexOf("db"));
    expect(order[order.length - 1]).toBe("stack");
    // independent resources go in reverse registration order
    expect(order.indexOf("cache")).toBeLessThan(order.indexOf("web"));
  });

  test("follows dependencies registered after the dependent (e.g. an orphan left in state)", () => {
    const order = deleteOrder([node("a", ["b"]), node("b"), node("c", ["a"])]).map((n) => n.urn);
    expect(order).toEqual(["c", "a", "b"]);
  });

  test("ignores dependencies outside the set", () => {
    expect(deleteOrder([node("x", ["gone"])]).map((n) => n.urn)).toEqual(["x"]);
  });

  test("reports a cycle instead of looping", () => {
    expect(() => deleteOrder([node("a", ["b"]), node("b", ["a"])])).toThrow(/dependency cycle/);
  });
});
