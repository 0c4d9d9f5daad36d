import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { AUTH_ERROR_CLASSES } from "../../contract/index.js";
import { EMU_ERRORS, EmulatorError } from "../../emulator/errors.js";

const ROOT = resolve(__dirname, "../..");
const PAGE = "docs/emulator.md";
const page = readFileSync(join(ROOT, PAGE), "utf8");

/** The items of the page's "Status codes" list (`- \`CODE\` (status, class): when`), as `code status class`. */
function documentedRows(): string[] {
  const section = page.slice(page.indexOf("## Status codes"));
  const list = section.slice(0, section.indexOf("\n## "));
  return [...list.matchAll(/^- `(EMU_ERR_[A-Z_]+)` \((\d{3}), (\w+)\): /gm)].map(
    ([, code, status, errorClass]) => `${code} ${status} ${errorClass}`,
  );
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("error catalogue", () => {
  test(`${PAGE} documents every code with its status and class, and no code that is not catalogued`, () => {
    const catalogued = Object.entries(EMU_ERRORS).map(
      ([code, entry]) => `${code} ${entry.status} ${entry.errorClass}`,
    );
    expect(documentedRows().sort()).toEqual(catalogued.sort());
  });

  test(`every EMU_ERR_ code ${PAGE} or the emulator's sources name is catalogued`, () => {
    const named = new Set(page.match(/EMU_ERR_[A-Z_]+/g));
    for (const file of sources(join(ROOT, "emulator")))
      for (const code of readFileSync(file, "utf8").match(/EMU_ERR_[A-Z_]+/g) ?? []) named.add(code);
    expect([...named].filter((code) => !(code in EMU_ERRORS))).toEqual([]);
  });

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
