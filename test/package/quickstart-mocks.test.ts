/**
 * The quickstart's documented unit test (examples/quickstart/index.test.ts), run by the repository's
 * jest against the sources, with every TCP connection the process tries recorded and refused: the test opens none.
 * test/docs/recipes.test.ts runs the same file in a user's project, set up as docs/testing.md says.
 */
import * as net from "node:net";

const attempts: string[] = [];
const connect = net.Socket.prototype.connect;
// The mocks answer everything in this process: no API key or address of the service is needed, or used.
process.env.RIMUHOSTING_APIKEY = "";
process.env.RIMUHOSTING_BASEURL = "";
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  // net.connect() passes its arguments on normalized, as an array whose first element is the options.
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  const to = first as { host?: string; path?: string; port?: number } | string | number;
  attempts.push(
    typeof to === "object" && to !== null ? `${to.host ?? to.path}:${to.port}` : `${to}:${args[1]}`,
  );
  throw new Error("no network in this test");
} as typeof connect;
afterAll(() => {
  net.Socket.prototype.connect = connect;
});

require("../../examples/quickstart/index.test");

// Declared after the quickstart's describe, so it runs after its tests.
describe("after the quickstart's tests", () => {
  it("they opened no connection", () => {
    expect(attempts).toEqual([]);
  });
});
