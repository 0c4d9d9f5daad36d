/**
 * What a failed read means for check(): the rule that decides whether a preview fails or goes on with a
 * warning. Only a temporary fault of a service that answers (a 5xx or 429 after the client's retries, a
 * timeout, a connection dropped mid-answer) may skip a check, and the warning then names the check that did
 * not run. Everything else fails the preview with the setting to fix, as the user wrote it (settings-source.ts):
 * a refused key names `rimuhosting:apiKey` (or `provider 'alice': apiKey`), and an address where nothing
 * answers (or something that is not RimuHosting's API) names `rimuhosting:baseUrl`; both give the URL tried.
 */
import {
  RIMU_ERROR_CODES,
  RimuAuthError,
  RimuConfigError,
  RimuConflictError,
  RimuError,
  RimuTimeoutError,
  RimuTransientError,
  RimuValidationError,
  normalizeBaseUrl,
} from "../../client/index.js";
import { VpsError, messageOf, timeoutSetting } from "../engine/errors.js";
import { settingName } from "../engine/settings-source.js";

export type ReadFailure =
  /** The service answered with a temporary fault: the check is skipped, with a warning saying why. */
  | { kind: "temporary"; why: string }
  /** The settings are wrong (key, address): the preview fails with this error. */
  | { kind: "settings"; error: VpsError }
  /** The service refused the request itself (a 4xx on a quote): the caller says what that means for the input. */
  | { kind: "refused"; error: RimuValidationError | RimuConflictError };

/** Network codes that mean nothing RimuHosting-like answers at the address (not a fault of a service that does). */
const UNREACHABLE =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ERR_INVALID_URL|ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/;

/** Says what a failed read means; `baseUrl` is the configured API root (for the URL tried). */
export function readFailure(error: unknown, baseUrl: string): ReadFailure {
  if (!(error instanceof RimuError)) throw error;
  if (error instanceof RimuValidationError || error instanceof RimuConflictError)
    return { kind: "refused", error };
  const tried = urlTried(error, baseUrl);
  if (error instanceof RimuAuthError) {
    return {
      kind: "settings",
      error: new VpsError(
        error.code,
        `${settingName("apiKey")}: RimuHosting refused the API key (${error.status ?? "refused"} from ${tried}).`,
        error,
        settingName("apiKey"),
      ),
    };
  }
  if (error instanceof RimuTimeoutError) {
    // No connection, or connected and not even the first byte of an answer within the read timeout: nothing that
    // answers is there.
    if (error.noAnswer === true) return { kind: "settings", error: silentBaseUrl(error, baseUrl, tried) };
    return { kind: "temporary", why: `no answer from ${tried} in time` };
  }
  if (error instanceof RimuTransientError) {
    if (error.status !== undefined)
      return { kind: "temporary", why: `RimuHosting answered ${error.status} to ${tried}` };
    if (error.networkCode !== undefined && !UNREACHABLE.test(error.networkCode))
      return { kind: "temporary", why: `the connection to ${tried} failed (${error.networkCode})` };
  }
  return { kind: "settings", error: unusableBaseUrl(error, baseUrl, tried) };
}

/** The base URL does not lead to RimuHosting's API: nothing answers, or something else does. */
function unusableBaseUrl(error: RimuError, baseUrl: string, tried: string): VpsError {
  const at = root(baseUrl);
  const what =
    error.networkCode !== undefined
      ? `nothing answers at ${at} (${describeNetworkCode(error.networkCode)})`
      : error instanceof RimuConfigError
        ? `${at}: ${messageOf(error).replace(/^\[[A-Z_]+\]\s*/, "")}`
        : `what answers at ${at} is not RimuHosting's API (${error.status ?? "an unreadable answer"} from ${tried})`;
  return new VpsError(
    RIMU_ERROR_CODES.RimuConfigError,
    `${settingName("baseUrl")}: ${what}; tried ${tried}. If the address is right, RimuHosting cannot be reached ` +
      `from here: run again once it can.`,
    error,
    settingName("baseUrl"),
  );
}

/**
 * Nothing at the base URL took the connection, or it was taken and not even the first byte of an answer came, within
 * the read timeout. Told apart by what the attempt was waiting for: only a request that was sent can go unanswered.
 */
function silentBaseUrl(error: RimuTimeoutError, baseUrl: string, tried: string): VpsError {
  const wait = error.timeoutMs === undefined ? "in time" : `within ${error.timeoutMs / 1000} s`;
  const limit = `(${timeoutSetting(error.timeoutKind ?? "read")})`;
  const what =
    error.waitedFor === "connection"
      ? `nothing at ${root(baseUrl)} took the connection ${wait} ${limit}, so ${tried} could not be ` +
        `sent. Nothing was changed. If the address is right, RimuHosting cannot be reached from here (a firewall ` +
        `that drops connections looks the same).`
      : `nothing answered at ${root(baseUrl)} ${wait} ${limit}: ${tried} got not even the start of an ` +
        `answer. Nothing was changed. If the address is right, RimuHosting is not answering from here.`;
  return new VpsError(
    RIMU_ERROR_CODES.RimuTimeoutError,
    `${settingName("baseUrl")}: ${what}`,
    error,
    settingName("baseUrl"),
  );
}

function describeNetworkCode(code: string): string {
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the host name does not resolve";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "the host cannot be reached";
  return code;
}

/** The API root as the client uses it (with its `/r`), or as given when it is not a URL. */
function root(baseUrl: string): string {
  try {
    return normalizeBaseUrl(baseUrl);
  } catch {
    return baseUrl;
  }
}

/** `GET http://host/r/orders`: the method and URL of the endpoint that failed. */
function urlTried(error: RimuError, baseUrl: string): string {
  const [method, path] = (error.endpoint ?? "").split(" ");
  if (!method || !path) return root(baseUrl);
  return `${method} ${root(baseUrl)}${path}`;
}
