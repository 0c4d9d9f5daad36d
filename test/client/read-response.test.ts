import { ENDPOINTS } from "../../contract/index.js";
import {
  RimuAuthError,
  RimuConflictError,
  RimuHttpError,
  RimuNotFoundError,
  RimuResponseShapeError,
  RimuTransientError,
  RimuValidationError,
} from "../../provider/client/index.js";
import { readResponse } from "../../provider/client/read-response.js";
import { createRedactor } from "../../provider/client/redact.js";

const KEY = "sekret-key-123456";
const redact = createRedactor(KEY);
const envelope = { status_code: 200, response_type: "OK", human_readable_message: "ok" };
const order = { order_oid: 42, domain_name: "web1.example.com", slug: "order-42-web1-example-com" };

function errorBody(status: number, info: Record<string, unknown>) {
  return JSON.stringify({
    jaxrs_response: {
      status_code: status,
      response_type: "ERROR",
      human_readable_message: null,
      error_info: info,
    },
  });
}

function read(
  endpoint: keyof typeof ENDPOINTS,
  status: number,
  body: string,
  contentType = "application/json",
) {
  return () => readResponse(ENDPOINTS[endpoint], { status, body, contentType }, redact);
}

describe("readResponse: success", () => {
  it("unwraps and validates the record under the root key", () => {
    const body = JSON.stringify({ get_order_response: { ...envelope, about_order: order, extra_field: 1 } });
    const record = readResponse(ENDPOINTS.getOrder, { status: 200, body }, redact);
    expect(record.about_order.order_oid).toBe(42);
    expect(record.extra_field).toBe(1);
  });

  it("names the endpoint and the field path when the shape is wrong", () => {
    const bad = { get_order_response: { ...envelope, about_order: { ...order, order_oid: "42" } } };
    expect(read("getOrder", 200, JSON.stringify(bad))).toThrow(RimuResponseShapeError);
    expect(read("getOrder", 200, JSON.stringify(bad))).toThrow(
      /GET \/orders\/\{order\} 200: unexpected response shape: about_order\.order_oid: expected number/,
    );
  });

  it("reports a missing root key", () => {
    expect(read("getOrder", 200, JSON.stringify({ something_else: {} }))).toThrow(
      /lacks the root key "get_order_response" \(found: something_else\)/,
    );
  });

  it("reports a non-JSON 2xx body", () => {
    expect(read("listOrders", 200, "<html><title>Welcome</title></html>", "text/html")).toThrow(
      /\[RIMU_ERR_RESPONSE_SHAPE\] GET \/orders 200: a non-JSON body \(text\/html: "Welcome"\)/,
    );
  });

  it("treats response_type ERROR inside a 2xx as an error", () => {
    const body = JSON.stringify({
      get_order_response: {
        status_code: 404,
        response_type: "ERROR",
        error_info: { human_readable_message: "No such order" },
      },
    });
    expect(read("getOrder", 200, body)).toThrow(RimuNotFoundError);
  });
});

describe("readResponse: error mapping", () => {
  const cases: [number, Record<string, unknown>, new (...a: never[]) => Error, string][] = [
    [403, { error_class: "PermissionException" }, RimuAuthError, "RIMU_ERR_AUTH"],
    [401, {}, RimuAuthError, "RIMU_ERR_AUTH"],
    [500, { error_class: "LoginRequired" }, RimuAuthError, "RIMU_ERR_AUTH"],
    [404, {}, RimuNotFoundError, "RIMU_ERR_NOT_FOUND"],
    [400, { field_name: "instantiation_options.domain_name" }, RimuValidationError, "RIMU_ERR_VALIDATION"],
    [422, {}, RimuValidationError, "RIMU_ERR_VALIDATION"],
    [409, {}, RimuConflictError, "RIMU_ERR_CONFLICT"],
    [429, {}, RimuTransientError, "RIMU_ERR_TRANSIENT"],
    [500, {}, RimuTransientError, "RIMU_ERR_TRANSIENT"],
    [503, {}, RimuTransientError, "RIMU_ERR_TRANSIENT"],
    [405, {}, RimuHttpError, "RIMU_ERR_HTTP"],
  ];
  it.each(cases)("%i %j -> %p", (status, info, ErrorClass, code) => {
    const body = errorBody(status, { human_readable_message: "Something failed", ...info });
    let caught: unknown;
    try {
      read("createVps", status, body)();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ErrorClass);
    expect(caught).toMatchObject({
      code,
      status,
      humanMessage: "Something failed",
      endpoint: "POST /orders/new-vps",
    });
  });

  it("carries field_name and error_class into the error and its message", () => {
    const body = errorBody(400, {
      error_class: "ValidationException",
      field_name: "instantiation_options.domain_name",
      human_readable_message: "Domain name is not valid",
    });
    expect(read("createVps", 400, body)).toThrow(
      "[RIMU_ERR_VALIDATION] POST /orders/new-vps 400: Domain name is not valid (field: instantiation_options.domain_name) [ValidationException]",
    );
  });

  it("gives a clear error for a proxy's HTML error page", () => {
    const html =
      "<html><head><title>503 Service Temporarily Unavailable</title></head><body>nginx</body></html>";
    expect(read("listOrders", 503, html, "text/html")).toThrow(RimuTransientError);
    expect(read("listOrders", 503, html, "text/html")).toThrow(
      '[RIMU_ERR_TRANSIENT] GET /orders 503: HTTP 503 with a non-JSON body (text/html: "503 Service Temporarily Unavailable")',
    );
    expect(read("listOrders", 502, "", "")).toThrow(
      /HTTP 502 with a non-JSON body \(no content type, empty\)/,
    );
  });

  it("finds an error envelope under the operation's own root key or at the top level", () => {
    const own = JSON.stringify({
      post_new_vps_response: {
        status_code: 409,
        response_type: "ERROR",
        error_info: { human_readable_message: "x" },
      },
    });
    expect(read("createVps", 409, own)).toThrow(RimuConflictError);
    const top = JSON.stringify({ error_info: { human_readable_message: "top level" } });
    expect(read("createVps", 400, top)).toThrow(/400: top level/);
  });

  it("redacts the API key from texts it quotes", () => {
    const body = errorBody(403, {
      human_readable_message: `bad key ${KEY} (Authorization: rimuhosting apikey=${KEY})`,
    });
    let message = "";
    try {
      read("listOrders", 403, body)();
    } catch (e) {
      message = (e as Error).message + JSON.stringify(e);
    }
    expect(message).toContain("[redacted]");
    expect(message).not.toContain(KEY);
    const html = `<html><title>echo ${KEY}</title></html>`;
    expect(read("listOrders", 502, html, "text/html")).toThrow(/echo \[redacted\]/);
  });
});
