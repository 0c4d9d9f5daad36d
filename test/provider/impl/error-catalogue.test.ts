/**
 * One error catalogue: every code the code base can raise is in ERROR_CATALOGUE and documented in
 * docs/errors.md, every documented code exists, each class carries the code the catalogue names, and
 * no code prefix is typed by hand (the way fastify checks lib/errors.js against its Errors.md).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import * as clientErrors from "../../../provider/client/errors";
import * as providerErrors from "../../../provider/impl/engine/errors";
import { RimuError, RimuTransientError, RimuValidationError } from "../../../provider/client/errors";
import { presentError, VpsError } from "../../../provider/impl/engine/errors";

const ROOT = resolve(__dirname, "../../..");
const documented = [
  ...readFileSync(join(ROOT, "docs/errors.md"), "utf8").matchAll(/^## (RIMU_ERR_[A-Z_]+)$/gm),
].map((m) => m[1]);
const catalogue = Object.keys(providerErrors.ERROR_CATALOGUE);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("error catalogue", () => {
  it("every catalogued code is documented, and every documented code is catalogued", () => {
    expect([...documented].sort()).toEqual([...catalogue].sort());
    expect(new Set(documented).size).toBe(documented.length);
  });

  it("every code in the code base is catalogued", () => {
    const used = new Set<string>();
    for (const file of sources(join(ROOT, "provider"))) {
      for (const m of readFileSync(file, "utf8").matchAll(/"(RIMU_ERR_[A-Z_]+)"/g)) used.add(m[1]!);
    }
    expect([...used].filter((code) => !catalogue.includes(code))).toEqual([]);
  });

  it("each error class carries the code the catalogue names for it", () => {
    const classes: Record<string, unknown> = { ...clientErrors, ...providerErrors };
    for (const [code, entry] of Object.entries(providerErrors.ERROR_CATALOGUE)) {
      expect({ code, exists: typeof classes[entry.className] === "function" }).toEqual({
        code,
        exists: true,
      });
    }
    for (const [className, code] of Object.entries(clientErrors.RIMU_ERROR_CODES)) {
      expect(providerErrors.ERROR_CATALOGUE[code].className).toBe(className);
    }
    expect(new providerErrors.VpsAdoptionError("x").code).toBe("RIMU_ERR_ADOPTION");
    expect(new providerErrors.VpsChangeRefusedError("distro", "x").code).toBe("RIMU_ERR_CHANGE_REFUSED");
    expect(new providerErrors.VpsForeignOrderError(1, "x").code).toBe("RIMU_ERR_FOREIGN_ORDER");
  });

  it("no [CODE] prefix is typed by hand: the classes add it", () => {
    const handTyped = sources(join(ROOT, "provider")).filter((file) =>
      /`\[RIMU_ERR_[A-Z_]+\]/.test(readFileSync(file, "utf8")),
    );
    expect(handTyped).toEqual([]);
    expect(new RimuValidationError("x").message).toBe("[RIMU_ERR_VALIDATION] x");
    expect(new RimuValidationError("[RIMU_ERR_VALIDATION] x").message).toBe("[RIMU_ERR_VALIDATION] x");
  });

  it("no bare `new Error` in what the provider host loads", () => {
    const bare = sources(join(ROOT, "provider/impl")).filter((file) =>
      /new Error\(/.test(readFileSync(file, "utf8")),
    );
    expect(bare).toEqual([]);
  });
});

describe("presentError: one clean message", () => {
  it("names the input instead of the wire field, strips the client's route prefix, and adds the advice once", () => {
    const wire = new RimuValidationError(
      "PUT /orders/{order}/vps/parameters 400: vps_parameters.memory_mb must be at least 256",
      {
        status: 400,
        fieldName: "vps_parameters.memory_mb",
        humanMessage: "vps_parameters.memory_mb must be at least 256",
      },
    );
    const shown = presentError(wire, "Updating Vps 1234 (web1.example.com)");
    expect(shown).toBeInstanceOf(VpsError);
    expect(shown.message).toBe(
      "[RIMU_ERR_VALIDATION] Updating Vps 1234 (web1.example.com): memoryMb must be at least 256. " +
        "Fix the input named above; running again without changing it fails the same way.",
    );
    expect(shown.fieldName).toBe("memoryMb");
  });

  it("gives temporary advice to a transient failure, and never 'try again' to a typo or a bad key", () => {
    const transient = presentError(
      new RimuTransientError("GET /orders 503: busy", { status: 503 }),
      "Refreshing Vps 1",
    );
    expect(transient.message).toContain("This is temporary");
    const auth = presentError(
      new clientErrors.RimuAuthError("GET /orders 403: bad key", { status: 403 }),
      "Refreshing Vps 1",
    );
    expect(auth.message).toContain("rimuhosting:apiKey");
    expect(auth.message).not.toMatch(/temporary|try again later|run the same/i);
  });

  it("prints once, without a stack, the way the host prints check/diff/read/delete errors", () => {
    const error = presentError(new RimuError("x"), "Deleting Vps 1");
    // The dynamic-provider host logs `${e}: ${e.stack}`.
    const printed = `${error}: ${error.stack}`;
    expect(printed).toBe(`rimuhosting: ${error.message}`);
    expect(printed).not.toMatch(/\n\s+at /);
  });
});
