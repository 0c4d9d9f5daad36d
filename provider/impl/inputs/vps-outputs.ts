/**
 * AboutOrder (wire, snake_case) to Vps outputs (camelCase): the order's fields (../wire-mapping/order-fields.ts)
 * plus the inputs the service does not report.
 *
 * Outputs hold every input (so diff(), which receives the old outputs, can compare) with the values the
 * service reports taking precedence, plus what only the service knows (orderOid, IPs, fee...).
 */
import type { AboutOrder } from "../../../contract/index.js";
import { compact } from "../../wire-mapping/values.js";
import { orderFields } from "../../wire-mapping/order-fields.js";
import { INTERNAL_INPUTS, RECORDED_ORDER_KEY, VPS_INPUT_NAMES, SECRET_FIELDS } from "../fields/vps-fields.js";
import { asSecret } from "./secret-values.js";
import type { VpsInputExtras, VpsInputs } from "./vps-input-schema.js";

/**
 * Output keys for the provider's own bookkeeping. The engine hides keys starting with "__" in every
 * display, so they never show as changes.
 */
const INPUT_NAMES_KEY = "__inputNames";

/**
 * The outputs: every input (VpsInputs, from the field table), where the service reports one the value it
 * reports (orderFields(), whose values may be wider than the input's: a RESTARTING VPS), and what only
 * the service knows (orderOid, IPs, fee…). Derived, so a new input needs no line here unless the service
 * reports it (then orderFields() reads it).
 */
export type VpsOutputs = Omit<VpsInputs, keyof ServiceFields | keyof VpsInputExtras> &
  Partial<ServiceFields> & {
    domainName: string;
    secondaryIps: string[];
    /** The inputs the program set (so a refresh hands back exactly those, not what the service picked). */
    __inputNames?: string[];
    /** A pending create's creation token (PENDING_TOKEN_KEY, vps-create.ts). */
    __creationToken?: string;
    /** The serialized provider the engine records with a dynamic resource's outputs. */
    __provider?: string;
  };

/**
 * What a state records of a Vps, as the lifecycle reads it: its outputs; for a create whose outcome is unknown,
 * the inputs with the creation nonce and token (vps-create.ts); nothing for an order being imported.
 */
export type RecordedOutputs = Partial<VpsOutputs>;

/**
 * Order fields a Vps does not keep. RimuHosting's one-line summary of the order restates the other outputs (plan,
 * location, sizes, host, IP, distro, price) in about 250 bytes of every VPS's state, which the engine rewrites
 * around every step of an update (issue 20). The getOrder data source reads it.
 */
export const ORDER_FIELDS_NOT_KEPT = ["orderDescription"] as const;

type ServiceFields = Omit<ReturnType<typeof orderFields>, (typeof ORDER_FIELDS_NOT_KEPT)[number]>;

/**
 * Outputs for an order. `recorded` supplies the inputs the service cannot report (pricing plan,
 * install-time options, settings) and the password, which the service only returns when it generates one.
 */
export function orderOutputs(
  order: AboutOrder,
  recorded: RecordedOutputs,
  /** The inputs the program set; default: the list recorded in earlier outputs. */
  programInputs?: VpsInputs | RecordedOutputs,
): VpsOutputs {
  const echo = recordedInputs(recorded);
  const { orderDescription: _notKept, ...fields } = orderFields(order);
  const outputs: VpsOutputs = {
    ...echo,
    [INPUT_NAMES_KEY]: inputNamesOf(programInputs ?? recorded),
    ...fields,
    diskSpace2Mb: fields.diskSpace2Mb ?? 0,
    ipCount: fields.primaryIp ? 1 + fields.secondaryIps.length : undefined,
  };
  return compact(outputs);
}

/** The recorded inputs (and the internal ones) that are set. */
export function recordedInputs(recorded: VpsInputs | RecordedOutputs): RecordedOutputs {
  const names = new Set<string>([...VPS_INPUT_NAMES, ...INTERNAL_INPUTS]);
  const set = Object.entries(recorded).filter(
    ([name, value]) => names.has(name) && value !== undefined && value !== null,
  );
  return Object.fromEntries(set) as RecordedOutputs;
}

/**
 * The inputs the program set. Recorded outputs carry the list; outputs from before it existed fall back
 * to every input they hold.
 */
function inputNamesOf(recorded: VpsInputs | RecordedOutputs): string[] {
  const listed = INPUT_NAMES_KEY in recorded ? recorded[INPUT_NAMES_KEY] : undefined;
  if (Array.isArray(listed)) return listed.filter((name): name is string => typeof name === "string");
  return VPS_INPUT_NAMES.filter((name) => recorded[name] !== undefined && recorded[name] !== null);
}

/**
 * The inputs a refresh hands back to the engine: the inputs the program set (orderOutputs() gives the
 * service's current value where it reports one, so drift shows, and the recorded value otherwise), the
 * internal ones (creationScope, nonce), the order read (RECORDED_ORDER_KEY), and secrets wrapped as secrets. Inputs the program did not set
 * (a billingOid the service picked) are left out, so the next diff does not list them as removed.
 */
export function refreshedInputs(outputs: VpsOutputs): VpsInputs {
  const secret = new Set<string>(SECRET_FIELDS);
  const set = new Set<string>(outputs.__inputNames ?? VPS_INPUT_NAMES);
  const inputs: [string, unknown][] = [];
  for (const name of VPS_INPUT_NAMES) {
    const value = outputs[name];
    if (value === undefined || !set.has(name)) continue;
    if (name === "runningState" && value !== "RUNNING" && value !== "NOTRUNNING") continue;
    inputs.push([name, secret.has(name) ? asSecret(value) : value]);
  }
  for (const name of INTERNAL_INPUTS) if (outputs[name] !== undefined) inputs.push([name, outputs[name]]);
  // The order read, recorded so that check() finds it (RECORDED_ORDER_KEY): an import's or a refresh's inputs.
  if (typeof outputs.orderOid === "number") inputs.push([RECORDED_ORDER_KEY, outputs.orderOid]);
  // The service's values where it reports one: a runningState other than an input's was left out above.
  return Object.fromEntries(inputs) as VpsInputs;
}
