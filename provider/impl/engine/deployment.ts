/**
 * Which deployment this process serves (one `pulumi preview`, or one phase of `pulumi up`), in a form a policy pack
 * can tell too: the engine's address, which the engine gives every plugin of a deployment as its first argument
 * (each provider and the policy pack's analyzer alike), on a port of its own each time.
 *
 * check() records it in the checked inputs (CHECK_DEPLOYMENT_KEY): the run's engine (RunContext.engine). Under
 * `--target` the engine does not check a VPS it was not asked to change: it hands the policy pack that VPS's recorded inputs instead, which say what the VPS was
 * in the run that last checked it (a VPS ordered then has a planned fee and no fee now, as if new). With this key the
 * pack tells them from this run's checks (policy-pack/policies.ts) and counts such a VPS at its fee now (issue 55).
 */

/**
 * The key of the checked inputs that names the deployment of the check (absent outside a real run). Not `__`-prefixed:
 * the engine leaves such internal keys out of what it hands a policy pack.
 */
export const CHECK_DEPLOYMENT_KEY = "checkedInDeployment";
