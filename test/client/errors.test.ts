import { inspect } from "node:util";
import * as client from "../../provider/client/index.js";
import { RIMU_ERROR_CODES, RimuError, RimuTransientError } from "../../provider/client/index.js";

describe("error catalogue", () => {
  it("has one unique code per class, matching the class's static code and instances", () => {
    const codes = Object.values(RIMU_ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [className, code] of Object.entries(RIMU_ERROR_CODES)) {
      const ErrorClass = (client as unknown as Record<string, typeof RimuError>)[className];
      expect(ErrorClass).toBeDefined();
      expect(ErrorClass!.code).toBe(code);
      const instance = new ErrorClass!("m");
      expect(instance).toBeInstanceOf(RimuError);
      expect(instance).toBeInstanceOf(Error);
      expect(instance.code).toBe(code);
      expect(instance.name).toBe(className);
    }
  });

  it("keeps the cause non-enumerable and out of JSON", () => {
    const cause = new Error("inner");
    const error = new RimuTransientError("outer", { status: 503, cause });
    expect(error.cause).toBe(cause);
    expect(Object.keys(error)).not.toContain("cause");
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toEqual({
      name: "RimuTransientError",
      code: "RIMU_ERR_TRANSIENT",
      message: "[RIMU_ERR_TRANSIENT] outer", // the code is prefixed by the class, never typed by hand
      status: 503,
    });
    expect(inspect(error)).toContain("RIMU_ERR_TRANSIENT");
  });

  it("leaves unknown details out instead of setting them undefined", () => {
    const error = new RimuError("m", { status: 404 });
    expect(Object.keys(error).sort()).toEqual(["code", "name", "status"]);
  });
});
