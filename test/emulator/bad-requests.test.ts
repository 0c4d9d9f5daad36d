/**
 * Every answer is in the API's envelope with a fitting status, including fastify's own and those
 * for requests Node's HTTP parser refuses. The sweep sends each request raw over node:net; the same
 * sweep is a command: `node dist/tools/emulator-sweep.js`.
 */
import { request, runSweep, sendRaw } from "../../tools/emulator-sweep.js";
import { useEmulator } from "../helpers/use-emulator.js";

describe("bad requests", () => {
  const emu = useEmulator();

  /** Status, Allow header and error code of the raw answer. */
  async function raw(
    text: string,
  ): Promise<{ status: number; allow?: string; code?: string; message?: string }> {
    const answer = await sendRaw(emu().port, text);
    const head = /^HTTP\/1\.1 (\d{3})/.exec(answer);
    const allow = /\r\nallow: ([^\r]*)/i.exec(answer)?.[1];
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as {
      jaxrs_response?: { error_info?: { error_title?: string; human_readable_message?: string } };
    };
    return {
      status: Number(head?.[1]),
      allow,
      code: body.jaxrs_response?.error_info?.error_title,
      message: body.jaxrs_response?.error_info?.human_readable_message,
    };
  }

  test.each([
    ["bad percent-encoding", request("GET", "/r/orders/order-1-x%ZZ"), 400, "EMU_ERR_BAD_URL"],
    [
      "a path segment over 1000 characters",
      request("GET", `/r/orders/order-1-${"a".repeat(1001)}`),
      414,
      "EMU_ERR_URI_TOO_LONG",
    ],
    [
      "a body over 1 MiB",
      request("POST", "/r/orders/new-vps", { body: `"${"z".repeat(1_100_000)}"` }),
      413,
      "EMU_ERR_BODY_TOO_LARGE",
    ],
    ["bad JSON", request("POST", "/r/orders/new-vps", { body: "{nope" }), 400, "EMU_ERR_BODY_NOT_JSON"],
    [
      "an oversized header",
      `GET /r/orders HTTP/1.1\r\nHost: x\r\nX-Big: ${"h".repeat(20000)}\r\n\r\n`,
      431,
      "EMU_ERR_HEADERS_TOO_LARGE",
    ],
    [
      "a malformed header",
      "GET /r/orders HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n",
      400,
      "EMU_ERR_BAD_REQUEST",
    ],
    ["a garbage request line", "GARBAGE\r\n\r\n", 400, "EMU_ERR_BAD_REQUEST"],
    ["no Host header", "GET /r/orders HTTP/1.1\r\nConnection: close\r\n\r\n", 400, "EMU_ERR_BAD_REQUEST"],
    [
      "an expectation other than 100-continue",
      request("POST", "/r/orders/new-vps", { headers: "Expect: bogus\r\n", body: "{}" }),
      417,
      "EMU_ERR_EXPECTATION_FAILED",
    ],
  ])("%s: in the envelope with a fitting status and code", async (_name, text, status, code) => {
    expect(await raw(text)).toMatchObject({ status, code });
  });

  test("a long domain part of an order segment (under 1000 characters) is still an order segment", async () => {
    expect(await raw(request("GET", `/r/orders/order-1-${"a".repeat(300)}`))).toMatchObject({
      status: 404,
      code: "EMU_ERR_ORDER_NOT_FOUND",
    });
  });

  test("a method the path does not take is a 405 with Allow; an unknown path stays a 404", async () => {
    expect(await raw(request("PATCH", "/r/orders/order-1-x/vps", { body: "{}" }))).toMatchObject({
      status: 405,
      allow: "GET, DELETE",
      code: "EMU_ERR_METHOD_NOT_ALLOWED",
      message: "/r/orders/order-1-x/vps does not take PATCH; it takes GET, DELETE.",
    });
    expect(await raw(request("POST", "/r/orders;include_inactive=Y", { body: "{}" }))).toMatchObject({
      status: 405,
      allow: "GET",
    });
    expect(await raw(request("POST", "/r/pricing-plans/new-vm-pricing", { body: "{}" }))).toMatchObject({
      status: 405,
      allow: "GET, PUT",
    });
    expect(await raw(request("GET", "/r/nothing"))).toMatchObject({
      status: 404,
      code: "EMU_ERR_ROUTE_NOT_FOUND",
    });
  });

  test("the sweep: at least 200 raw requests, 0 answers outside the envelope, 0 5xx", async () => {
    const result = await runSweep();
    expect(result.requests).toBeGreaterThanOrEqual(200);
    expect(result.outsideEnvelope).toEqual([]);
    expect(result.serverErrors).toEqual([]);
  });
});
