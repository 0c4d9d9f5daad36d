/**
 * The Vps resource's check, for both front ends (vps-provider.ts holds the rest of the lifecycle). checkVps() is the
 * core: it parses the new inputs once (parseInputs in vps-values.ts: the values set, secrets unwrapped, the inputs
 * still unknown in a preview marked) and hands that parsed value to every rule: the internal keys, the input keys
 * (vps-input-keys.ts), the validators (vps-input-schema.ts through vps-validate.ts), the one refusal rule
 * (vps-refusals.ts), the order guard's note of a replacement (order-guard.ts) and the look-ahead
 * (vps-lookahead.ts: catalogue, billing, hosts, room, the order quote), then the run's budget (budget.ts). It
 * returns what it found as data, the checked inputs with secret inputs wrapped. check() is the dynamic provider's
 * front end over it (the native plugin's is ../native/vps-resource.ts): it shows the notes, presents each failure as
 * one coded line (presentFailure) and, in a preview, returns a move's changed outputs as unknown inputs
 * (docs/dynamic-providers.md §10).
 */
import { RIMU_ERROR_CODES } from "../client/index.js";
import { creationNonceOf, creationTokenFor, newCreationNonce } from "./lifecycle/creation-token.js";
import { ERROR_CATALOGUE, VPS_ERROR_CODES, VpsError, presentError } from "./engine/errors.js";
import { isPreview } from "./budget/money.js";
import { emitNotes, previewUrnOf, resourceKey, resourceName, type Note } from "./engine/notes.js";
import { accountView } from "./lifecycle/runtime-config.js";
import { secretsWrapped } from "./inputs/secret-values.js";
import { withUnknown } from "./inputs/unknowns.js";
import { INTERNAL_KEYS, RECORDED_ORDER_KEY, USER_SET_INTERNAL } from "./fields/vps-fields.js";
import type { CheckFailure } from "./engine/check-failure.js";
import { withHostAsText, type VpsInputs } from "./inputs/vps-input-schema.js";
import { unknownKeyFailures } from "./inputs/vps-input-keys.js";
import { transitionFailures } from "./inputs/vps-refusals.js";
import { validateInputs } from "./inputs/vps-validate.js";
import { parseInputs, refreshableState, type ParsedInputs } from "./inputs/vps-values.js";
import { lookAhead } from "./lookahead/vps-lookahead.js";
import { CURRENT_FEE_KEY, PLANNED_FEE_KEY } from "./budget/planned-fee.js";
import { CHECK_DEPLOYMENT_KEY } from "./engine/deployment.js";
import { judgeBudget } from "./budget/budget.js";
import { leaveToPreviewStep, leftToPreviewStep } from "./budget/preview-verdicts.js";
import { isReplaced, noteCheckedChange } from "./ordering/order-guard.js";
import { whatWasDone } from "./ordering/done-words.js";
import { noteRefusedAtCheck } from "./ordering/replaced-orders.js";
import { currentRun, type RunContext } from "./engine/run-context.js";
import type { ChangeOrders } from "./account/shared-plan.js";
import type { LookAhead } from "./lookahead/vps-lookahead.js";
import { noteChecked } from "./lifecycle/refresh-diff.js";
import { noteProgramChecked } from "./ownership/stack-strays.js";

const RIMU_VALIDATION = RIMU_ERROR_CODES.RimuValidationError;

/** What checkVps() found. */
export interface CheckResult {
  /**
   * The checked inputs: the nonce kept (or made), secret inputs wrapped as secrets, and plannedMonthlyFeeUsd and
   * currentMonthlyFeeUsd when they are known (planned-fee.ts).
   */
  inputs: VpsInputs;
  /** Why the inputs are refused (empty when they are not), each with its input, reason and code. */
  failures: CheckFailure[];
  /** Warnings (a check that could not run, a distro not listed, a stray order) and prices. */
  notes: Note[];
  /** Outputs a planned move changes (unknown until it ran): a front end shows them as unknown in a preview. */
  unknownOutputs: string[];
}

/**
 * Validates the inputs (every failure names the input and says how to fix it), keeps this state's creation
 * nonce (or makes one for a new resource), wraps secret inputs as secrets, refuses internal inputs a program
 * set, and looks ahead at what the service will say (vps-lookahead.ts). Throws only on a bug. `mayApply`: the
 * check runs a preview's checks but may belong to `pulumi up` (the native plugin's); a budget verdict over only for a
 * shrink the latest preview planned is then left to the create or update step (previewRefusal below).
 */
export async function checkVps(
  olds: VpsInputs,
  program: VpsInputs,
  options: { mayApply?: boolean } = {},
): Promise<CheckResult> {
  // A host given as a number (a YAML config value) is that host's id, as every rule below reads it.
  const news = withHostAsText(program);
  // The run this check belongs to: the one place the check reaches it; everything below is handed it.
  const run = currentRun();
  // The old inputs are recorded state: a value not of its kind is left out, not trusted.
  const before = refreshableState(olds) as VpsInputs;
  // The new ones parsed once: every rule below reads this, never the raw bag.
  const parsed = parseInputs(news);
  const given = parsed.values;
  // Both: a read marked the key of the recorded outputs, which the old inputs follow (refresh-diff.ts).
  noteChecked(run, resourceKey(given), resourceKey(before));
  noteProgramChecked(run);
  // Never the nonce of the new inputs: only this provider makes one, and keeps it in this state.
  const nonce = typeof before.__creationNonce === "string" ? before.__creationNonce : newCreationNonce();
  const inputs = withOrder(secretsWrapped(ownKeys(news, nonce)), before[RECORDED_ORDER_KEY]);
  const failures = [
    ...internalInputFailures(parsed, before),
    ...unknownKeyFailures(parsed),
    ...validateInputs(parsed),
    ...transitionFailures(before, parsed),
  ];
  if (failures.length > 0) return { inputs, failures, notes: [], unknownOutputs: [] };
  // The inputs as checked: the program's internal keys replaced by this provider's own (never unknown).
  const oid = before[RECORDED_ORDER_KEY];
  const checking = {
    ...parsed,
    values: withOrder(ownKeys(parsed.values, nonce), oid),
    known: withOrder(ownKeys(parsed.known, nonce), oid),
  };
  noteCheckedChange(run, before, checking);
  const preview = isPreview(given);
  const ahead = await lookAhead(run, before, checking, preview, options.mayApply);
  const fee = ahead.fee?.usd;
  const now = ahead.fee?.nowUsd;
  const taken = ahead.takenBack && creationNonceOf(ahead.takenBack);
  // A killed run's order taken back: its nonce is this resource's now, so create() finds it (ownership/take-back.ts).
  const checked = withOrder(taken ? { ...inputs, __creationNonce: taken } : inputs, ahead.recordedOrderOid);
  // The run's budget (budget.ts): this VPS's fees counted with the others' checked so far.
  const budget = judgeBudget(
    run.settings.budget,
    ahead.fee && accountView(run, "Checking a Vps"),
    {
      resource: resourceKey(given),
      name: resourceName(given),
      change: changeOrders(run, ahead, checking.known),
    },
    ahead.fee,
    preview,
    options.mayApply,
  );
  // Over only for a previewed shrink not checked yet: said where the engine says the phase (preview-verdicts.ts).
  leaveToPreviewStep(run, resourceKey(given), budget.leftToPreviewStep);
  // Refused in what may be `pulumi up`: the run fails, and its replacements' orders are judged so (order-guard.ts).
  const cancelledWords =
    options.mayApply && budget.failures.length > 0
      ? await noteRefusedAtCheck(run, ahead.fee && accountView(run, "Checking a Vps"))
      : "";
  // What the run did before this check, true on the native plugin's `pulumi up` too (order-guard.ts): said only in a
  // refusal, so made only for one (it names every VPS the run changed: made for each check, a fleet's update of N
  // built N sentences of up to N names, 0.3 CPU-s of a 2,000-VPS update's provider host; docs/benchmarks.md).
  const done =
    budget.failures.length === 0
      ? ""
      : whatWasDone(
          run,
          `ordered or changed for ${resourceName(given)}`,
          options.mayApply ? "mayApply" : "preview",
        );
  // Which deployment checked them, so a policy pack tells this run's fees from recorded ones (deployment.ts).
  const deployment = run.engine;
  return {
    inputs: {
      ...checked,
      ...(fee === undefined ? {} : { [PLANNED_FEE_KEY]: fee }),
      ...(now === undefined ? {} : { [CURRENT_FEE_KEY]: now }),
      ...(deployment === undefined ? {} : { [CHECK_DEPLOYMENT_KEY]: deployment }),
    },
    failures: [
      ...ahead.failures,
      ...budget.failures.map((f) => ({
        ...f,
        reason: `${f.reason.replace(/[.\s]+$/, "")}. ${cancelledWords}${done}`,
      })),
    ],
    notes: [...ahead.notes, ...budget.notes],
    unknownOutputs: ahead.unknownOutputs,
  };
}

/**
 * The refusal a check of these (checked) inputs left to the step the engine says is a preview's
 * (budget/preview-verdicts.ts), or undefined: the native plugin's Create and Update with `preview` set throw it, with
 * the check's words and what the run did, as a preview's check says it.
 */
export function previewRefusal(inputs: VpsInputs): VpsError | undefined {
  const run = currentRun();
  const left = leftToPreviewStep(run, resourceKey(inputs));
  if (left === undefined) return undefined;
  const done = whatWasDone(run, `ordered or changed for ${resourceName(inputs)}`, "preview");
  return new VpsError(VPS_ERROR_CODES.budget, `${left.reason.replace(/[.\s]+$/, "")}. ${done}.`);
}

/**
 * The orders of the change a check planned, by which the other providers of the command find it in a listing once
 * it is made (shared-plan.ts): the live order it is made on or replaces, and the token a new order of it carries.
 */
function changeOrders(run: RunContext, ahead: LookAhead, known: VpsInputs): ChangeOrders {
  const scoped = typeof known.creationScope === "string" && known.creationScope !== "";
  return {
    ...(ahead.liveOrderOid === undefined ? {} : { order: ahead.liveOrderOid }),
    ...(isReplaced(run, known) ? { replaces: true } : {}),
    ...(scoped ? { token: ahead.creationToken ?? creationTokenFor(known) } : {}),
  };
}

/** The inputs with this provider's nonce, without the internal keys only the program names (refused above). */
function ownKeys(inputs: VpsInputs, nonce: string): VpsInputs {
  const { [USER_SET_INTERNAL]: _named, [RECORDED_ORDER_KEY]: _oid, ...given } = inputs;
  return { ...given, __creationNonce: nonce };
}

/** The inputs with the order to record (RECORDED_ORDER_KEY), or without any. */
function withOrder(inputs: VpsInputs, oid: number | undefined): VpsInputs {
  const { [RECORDED_ORDER_KEY]: _recorded, ...rest } = inputs;
  return oid === undefined ? rest : { ...rest, [RECORDED_ORDER_KEY]: oid };
}

/** Why each internal key is not the program's to set. */
const INTERNAL_KEY_OWNERS: Record<string, string> = {
  creationScope:
    "the Vps class sets it to <project>/<stack>/<resource name>, which finds a create whose answer was lost instead of ordering a second VPS",
  __creationNonce:
    "the provider makes it once and keeps it in this stack's state, to tell this stack's orders from others'",
  __preview: "the Vps class sets it while the program runs as a preview",
  __provider: "Pulumi sets it to the serialized provider",
  [RECORDED_ORDER_KEY]:
    "the provider records the number of the order this stack's state holds, to find the VPS's live order",
};

/** Internal keys the program set (the Vps class names them in USER_SET_INTERNAL), each refused. */
function internalInputFailures(parsed: ParsedInputs, before: VpsInputs): CheckFailure[] {
  const news = parsed.values; // a null is not set
  const named: unknown[] = Array.isArray(news[USER_SET_INTERNAL]) ? news[USER_SET_INTERNAL] : [];
  const keys = new Set(
    named.filter((key): key is string => typeof key === "string" && INTERNAL_KEYS.includes(key)),
  );
  // A nonce in the new inputs did not come from this provider (it keeps its own in the old inputs).
  if (news.__creationNonce !== undefined) keys.add("__creationNonce");
  // Nor a recorded order other than the state's: `pulumi import` checks the inputs read with themselves as the old.
  const oid = news[RECORDED_ORDER_KEY];
  if (oid !== undefined && oid !== before[RECORDED_ORDER_KEY]) keys.add(RECORDED_ORDER_KEY);
  return [...keys].map((key) => ({
    property: key,
    reason: `is internal and must not be set by the program: ${INTERNAL_KEY_OWNERS[key] ?? "it is the provider's"}. Remove it from the Vps's arguments`,
  }));
}

/**
 * One failure as the one line a user sees, for example "[RIMU_ERR_VALIDATION] memoryMb: must be at least
 * 128 MB (given: 100)." The property is left empty on purpose: the engine would print the input's value next to it in its
 * own notation (`{2.059038327e+09}`, or a secret), docs/errors.md.
 */
export function presentFailure(failure: CheckFailure): { property: string; reason: string } {
  const code = failure.code ?? RIMU_VALIDATION;
  const advice =
    code === RIMU_VALIDATION || code === VPS_ERROR_CODES.changeRefused
      ? ""
      : ` ${ERROR_CATALOGUE[code].advice}`;
  const named = failure.property === "" ? "" : `${failure.property}: `;
  const reason = /[.?!]$/.test(failure.reason) ? failure.reason : `${failure.reason}.`;
  return { property: "", reason: `[${code}] ${named}${reason}${advice}` };
}

/**
 * The dynamic provider's check: checkVps(), its notes shown on the resource, its failures presented, and in a
 * preview the outputs a move changes returned as unknown (the engine's preview of an update shows the checked
 * inputs as the outputs, docs/dynamic-providers.md §10). Never throws: a bug is one failure without a stack.
 */
export async function check(
  olds: VpsInputs,
  news: VpsInputs,
): Promise<{ inputs: VpsInputs; failures?: CheckFailure[] }> {
  const run = currentRun(); // where this call's notes go: the run it serves
  try {
    const result = await checkVps(olds, news);
    await emitNotes(run, result.notes, previewUrnOf(news));
    const inputs = isPreview(news) ? withUnknown(result.inputs, result.unknownOutputs) : result.inputs;
    return result.failures.length > 0
      ? { inputs, failures: result.failures.map(presentFailure) }
      : { inputs };
  } catch (error) {
    return {
      inputs: news,
      failures: [{ property: "", reason: presentError(error, "Checking Vps").message }],
    };
  }
}
