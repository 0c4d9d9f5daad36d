/** What `pulumi import` records of an order (the native plugin's Read with no state; vps-provider.ts's read()). */
import type { AboutOrder } from "../../../contract/index.js";
import { REPORTED_FIELDS } from "../fields/vps-fields.js";
import { orderOutputs, type RecordedOutputs } from "../inputs/vps-outputs.js";
import { creationNonceOf } from "./creation-token.js";

/** The inputs the service reports that an import leaves to it (importedInputs() says why). */
const LEFT_TO_RIMUHOSTING: readonly string[] = ["hostServerOid"];

/**
 * The inputs of an order read with no recorded state (`pulumi import`): every input the service reports,
 * so the engine records real inputs (and prints them as the code to paste) and the next preview shows no
 * change; and the order's creation nonce, so this state owns the order from now on (check() would
 * otherwise take it for another state's order when it still carries its creation token). The outputs' values, not
 * the raw fields': an input left out (ipCount, derived from the addresses) is one an SDK fills with its default.
 *
 * Never the host (`hostServerOid`): the VPS can be moved to another host outside the program (in the control panel,
 * or by RimuHosting), and a program that names the host moves it back on the next `pulumi up`, changing its IP
 * address again (issue 65). Left out, the program lets RimuHosting choose: `pulumi refresh` records a move, the
 * drift report's advice for it holds, and `pulumi preview --expect-no-changes` then finds nothing to do.
 */
export function importedInputs(order: AboutOrder): RecordedOutputs {
  const fields: RecordedOutputs = orderOutputs(order, {});
  const inputs: RecordedOutputs = Object.fromEntries(
    REPORTED_FIELDS.filter(
      (name) => !LEFT_TO_RIMUHOSTING.includes(name) && fields[name] !== undefined && fields[name] !== null,
    ).map((name) => [name, fields[name]]),
  );
  if (inputs.runningState !== "RUNNING" && inputs.runningState !== "NOTRUNNING") delete inputs.runningState;
  if (Object.keys(inputs.metaData ?? {}).length === 0) delete inputs.metaData;
  const nonce = creationNonceOf(order);
  if (nonce !== undefined) inputs.__creationNonce = nonce;
  return inputs;
}
