/**
 * The policy pack's policies called the way @pulumi/policy calls them (policy-pack/policy-shapes.ts): a resource's
 * type, name and properties, the policy's config, and a reportViolation that collects messages. A value unknown in
 * preview is a property whose read throws, as the framework's proxy does.
 */
import type { ResourcePolicy, StackPolicy } from "../../policy-pack/policies";

export class NotApplicable extends Error {}

export const NATIVE = "rimuhosting:index:Vps";
export const DYNAMIC = "pulumi-nodejs:dynamic/rimuhosting:Vps";

/** Properties whose `unknown` names throw on read, like @pulumi/policy's proxy for values unknown in preview. */
export function props(known: Record<string, unknown>, unknown: string[] = []): Record<string, unknown> {
  const result = { ...known };
  for (const name of unknown)
    Object.defineProperty(result, name, {
      enumerable: true,
      get() {
        throw new Error(`number value at .${name} can't be known during preview`);
      },
    });
  return result;
}

/**
 * What the framework gives a policy besides the resource or the stack: the policy's config, and a notApplicable that
 * throws (as @pulumi/policy's does).
 */
const frame = (config: object) => ({
  getConfig: <T extends object>() => config as T,
  notApplicable: (reason?: string): never => {
    throw new NotApplicable(reason);
  },
});

/** The messages `validate` reports, or "not applicable: <reason>" if it calls notApplicable. */
function reported(validate: (report: (message: string) => void) => void): string[] | string {
  const messages: string[] = [];
  try {
    validate((message) => messages.push(message));
  } catch (e) {
    if (e instanceof NotApplicable) return `not applicable: ${e.message}`;
    throw e;
  }
  return messages;
}

/** The messages a resource policy reports for one resource, or "not applicable: <reason>". */
export function judge(
  policy: ResourcePolicy,
  config: object,
  resourceProps: Record<string, unknown>,
  type = NATIVE,
  name = "web",
): string[] | string {
  return reported((report) =>
    policy.validateResource(
      { type, urn: `urn:x::${name}`, name, props: resourceProps, ...frame(config) },
      report,
    ),
  );
}

/** The messages a stack policy reports for the stack's resources, or "not applicable: <reason>". */
export function judgeStack(
  policy: StackPolicy,
  config: object,
  resources: { type?: string; name: string; props: Record<string, unknown> }[],
): string[] | string {
  return reported((report) =>
    policy.validateStack(
      {
        resources: resources.map((r) => ({ type: r.type ?? NATIVE, urn: `urn:x::${r.name}`, ...r })),
        ...frame(config),
      },
      report,
    ),
  );
}
