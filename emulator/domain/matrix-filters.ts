/**
 * Reading matrix parameters (docs/rimuhosting-api.md, 1.2 Matrix parameters) into filters. Both spellings clients use are
 * accepted (`server-type` and `server_type`, `dc-location` and `dc_location`); unknown parameters are
 * ignored, as a JAX-RS server ignores matrix parameters it does not declare.
 */
import { ServerType } from "../../contract/index.js";
import { findDataCenter } from "../catalog/data-centers.js";
import { emuError } from "../errors.js";

export type Matrix = ReadonlyMap<string, readonly string[]>;

/** The first given value among the spellings, and the spelling that carried it. */
export function matrixValue(matrix: Matrix, ...names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const values = matrix.get(name);
    if (values && values.length > 0) return { name, value: values[0]! };
  }
  return undefined;
}

const YES = new Set(["Y", "YES", "TRUE", "1", "ON"]);
const NO = new Set(["N", "NO", "FALSE", "0", "OFF"]);

/**
 * A Y/N flag. `Y` and `N` are the documented values; the spellings clients send for them (`true`,
 * `false` from Python's str(bool), `1`, `0`, `yes`, `no`, any case) mean the same. Anything else
 * (`None` from RimuHosting's own lsvms.py, `null`, an empty value, a typo) is the default, which the
 * caller decides: the real service answers those clients, so it evidently falls back rather than
 * refusing (a guess, listed in docs/emulator.md).
 */
export function parseYesNo(matrix: Matrix, name: string): boolean | undefined {
  const v = matrixValue(matrix, name)?.value.trim().toUpperCase();
  if (v === undefined) return undefined;
  if (YES.has(v)) return true;
  if (NO.has(v)) return false;
  return undefined;
}

/**
 * Values that ask for every server type, so they filter nothing: `ALL`, `ANY`, `*`, `BOTH` and the
 * placeholders Python and Java clients print for a missing value (`None`, `null`). A guess, listed in
 * docs/emulator.md; other values outside VPS and PHYSICAL stay a 400 that names the parameter.
 */
const ANY_SERVER_TYPE = new Set(["ALL", "ANY", "*", "BOTH", "NONE", "NULL"]);

export function parseServerType(matrix: Matrix): ServerType | undefined {
  const given = matrixValue(matrix, "server_type", "server-type");
  const value = given?.value.trim().toUpperCase();
  if (!given || value === undefined || value === "" || ANY_SERVER_TYPE.has(value)) return undefined;
  const parsed = ServerType.safeParse(value);
  if (!parsed.success) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: given.name,
      message: `${given.name} is '${given.value}' but must be VPS or PHYSICAL (or ALL, or left out, for both).`,
    });
  }
  return parsed.data;
}

export function parseDcFilter(matrix: Matrix): string | undefined {
  const given = matrixValue(matrix, "dc_location", "dc-location");
  if (!given || given.value === "") return undefined;
  const dc = findDataCenter(given.value);
  if (!dc) {
    throw emuError("EMU_ERR_UNKNOWN_DC", {
      fieldName: given.name,
      message: `${given.name} '${given.value}' is not a data-centre code; list them with GET /r/data-centers (e.g. DCDALLAS).`,
    });
  }
  return dc.code;
}

/** `order_oids` / `order_oid`: repeated, or separated by commas or spaces. */
export function parseOrderOids(matrix: Matrix): number[] | undefined {
  const out: number[] = [];
  let seen = false;
  for (const name of ["order_oids", "order_oid"]) {
    for (const raw of matrix.get(name) ?? []) {
      for (const part of raw.split(/[\s,]+/).filter((p) => p !== "")) {
        seen = true;
        if (!/^\d+$/.test(part)) {
          throw emuError("EMU_ERR_VALIDATION", {
            fieldName: name,
            message: `${name} '${raw}' must be order ids (digits), separated by commas.`,
          });
        }
        out.push(Number(part));
      }
    }
  }
  return seen ? out : undefined;
}

export function parseNumber(matrix: Matrix, name: string): number | undefined {
  const given = matrixValue(matrix, name);
  if (!given || given.value === "") return undefined;
  const n = Number(given.value);
  if (!Number.isFinite(n)) {
    throw emuError("EMU_ERR_VALIDATION", {
      fieldName: name,
      message: `${name} is '${given.value}' but must be a number such as 40.`,
    });
  }
  return n;
}
