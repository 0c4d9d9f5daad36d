/**
 * The one clean message of a failing data source.
 *
 * A data source runs in the program, so its error ends the program. Pulumi's Node.js runtime prints
 * an ordinary error with util.inspect (about twenty lines of ANSI-coloured stack, fields and cause
 * chain) but a `pulumi.RunError` as its message alone. So every failure of a real call (not one a
 * unit test's mocks raise) becomes a DataSourceError, a RunError: `[CODE] <data source>: <what is
 * wrong, in the argument names> <what to do>`, with the code of the error catalogue
 * (../impl/engine/errors.ts, docs/errors.md) and advice for a read: a data source changes nothing, so a
 * temporary failure is "run it again", never "up finishes the change".
 */
import * as pulumi from "@pulumi/pulumi";
import { RimuError } from "../client/errors.js";
import {
  ERROR_CATALOGUE,
  VPS_ERROR_CODES,
  VpsError,
  messageOf,
  rateLimitWords,
  serviceText,
  shownAsMessageOnly,
  type ErrorCode,
  type ErrorKind,
} from "../impl/engine/errors.js";
import { inputNameOfWireField } from "../impl/fields/vps-fields.js";

/**
 * Advice where the catalogue's (written for the Vps resource: "`pulumi up` finishes what is left",
 * "`pulumi refresh` drops the VPS") does not fit a read. Configuration advice is the same for both.
 */
const READ_ADVICE: Partial<Record<ErrorKind, string>> = {
  temporary:
    "This is temporary: run the same pulumi command again (a data source only reads; nothing was changed).",
  "fix-input": "Fix the argument named above; running again without changing it fails the same way.",
  "check-state":
    "Check the arguments against the account (an orderOid must be one of its orders: getOrders lists them); " +
    "running again unchanged fails the same way.",
};

export class DataSourceError extends pulumi.RunError {
  readonly code: ErrorCode;
  /** The data source that failed, e.g. `getPriceQuote`. */
  readonly dataSource: string;
  /** The argument at fault, when one is (`pricingPlanCode`, not the API's `pricing_plan_code`). */
  declare readonly fieldName?: string;

  constructor(dataSource: string, code: ErrorCode, text: string, cause?: unknown, fieldName?: string) {
    const entry = ERROR_CATALOGUE[code];
    const what =
      text.startsWith(`${dataSource} `) || text.startsWith(`${dataSource}:`)
        ? text
        : `${dataSource}: ${text}`;
    super(`[${code}] ${what.replace(/[.\s]+$/, "")}. ${READ_ADVICE[entry.kind] ?? entry.advice}`);
    this.code = code;
    this.dataSource = dataSource;
    shownAsMessageOnly(this, fieldName, cause);
    oneLineStacks(cause);
  }
}

/**
 * Cuts the stack of `error` and of each error in its cause chain to its first line (`Name: message`). The
 * SDK's handler of an uncaught error runs `util.inspect(error, { colors: true })` on it, cause chain
 * included. In the Output forms the cause's stack holds the SDK's frames as its source maps name them
 * (`node_modules/@pulumi/output.ts`: a file directly under a scope directory), and Node 20's inspect,
 * colouring such a line, loops until its string is too long: 44 s and 3.6 GB for that one line, then
 * the SDK inspects it again without colours (docs/benchmarks.md). The cause keeps its class, code,
 * status and message for a program that catches the error.
 */
function oneLineStacks(error: unknown): void {
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    const firstLine = (typeof e.stack === "string" ? e.stack : `${e.name}: ${e.message}`).split("\n")[0];
    Object.defineProperty(e, "stack", {
      value: firstLine,
      enumerable: false,
      writable: true,
      configurable: true,
    });
  }
}

/** Any failure of a data source's real call, as its one DataSourceError. */
export function dataSourceError(dataSource: string, error: unknown): DataSourceError {
  if (error instanceof DataSourceError) return error;
  if (error instanceof VpsError)
    return new DataSourceError(dataSource, error.code, error.detail, error, error.fieldName);
  if (error instanceof RimuError) {
    const field = error.fieldName ? (inputNameOfWireField(error.fieldName) ?? error.fieldName) : undefined;
    const text = `${serviceText(error).replace(/[.\s]+$/, "")}.${rateLimitWords(error)}`;
    return new DataSourceError(dataSource, error.code, text, error, field);
  }
  return new DataSourceError(dataSource, VPS_ERROR_CODES.internal, messageOf(error), error);
}
