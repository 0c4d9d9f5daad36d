import { AUTH_ERROR_CLASSES } from "../../contract/index.js";
import { EMU_ERRORS, EmulatorError } from "../../emulator/errors.js";

describe("error catalogue", () => {
  test("catalogue: every code is EMU_ERR_*, has a 4xx/5xx status, a class and a message", () => {
    for (const [code, entry] of Object.entries(EMU_ERRORS)) {
      expect(code).toMatch(/^EMU_ERR_[A-Z_]+$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(entry.errorClass).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(entry.message.length).toBeGreaterThan(10);
    }
  });

  test("catalogue: the agreed statuses (400 validation, 403 auth, 404 not found, 409 conflict, 503 injected)", () => {
    expect(EMU_ERRORS.EMU_ERR_VALIDATION.status).toBe(400);
    expect(EMU_ERRORS.EMU_ERR_LOGIN_REQUIRED).toMatchObject({
      status: 403,
      errorClass: AUTH_ERROR_CLASSES[1],
    });
    expect(EMU_ERRORS.EMU_ERR_PERMISSION).toMatchObject({ status: 403, errorClass: AUTH_ERROR_CLASSES[0] });
    expect(EMU_ERRORS.EMU_ERR_ORDER_NOT_FOUND.status).toBe(404);
    expect(EMU_ERRORS.EMU_ERR_DISK_SHRINK.status).toBe(409);
    expect(EMU_ERRORS.EMU_ERR_HOST_CAPACITY.status).toBe(409);
    expect(EMU_ERRORS.EMU_ERR_ORDER_CANCELLED.status).toBe(409);
    expect(EMU_ERRORS.EMU_ERR_FAULT_INJECTED.status).toBe(503);
  });

  test("EmulatorError: carries code, status, class and field; options override message and status", () => {
    const err = new EmulatorError("EMU_ERR_VALIDATION", {
      fieldName: "memory_mb",
      message: "memory_mb: too small",
    });
    expect(err).toMatchObject({
      code: "EMU_ERR_VALIDATION",
      status: 400,
      errorClass: "ValidationException",
      fieldName: "memory_mb",
    });
    expect(err.message).toBe("memory_mb: too small");
    expect(new EmulatorError("EMU_ERR_FAULT_INJECTED", { status: 502 }).status).toBe(502);
  });
});
