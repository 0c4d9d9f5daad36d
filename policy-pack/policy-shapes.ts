/**
 * The shapes the pack's policies are written against (the few members of @pulumi/policy's types they use, so that
 * their logic is tested without the framework's gRPC server), their configs, and the words every policy says a
 * VPS and a judgement it could not make with.
 */
export type EnforcementLevel = "advisory" | "mandatory" | "remediate" | "disabled";
export type ReportViolation = (message: string, urn?: string) => void;

/** What a resource policy is given (the members of @pulumi/policy's ResourceValidationArgs it reads). */
export interface ResourceArgs {
  type: string;
  urn: string;
  name: string;
  props: Record<string, unknown>;
  getConfig<T extends object>(): T;
  notApplicable(reason?: string): never;
}

/** What a stack policy is given (the members of @pulumi/policy's StackValidationArgs it reads). */
export interface StackArgs {
  resources: readonly { type: string; name: string; urn: string; props: Record<string, unknown> }[];
  getConfig<T extends object>(): T;
  notApplicable(reason?: string): never;
}

interface JsonSchema {
  type: "string" | "number" | "integer" | "boolean" | "array" | "object";
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  items?: JsonSchema & { enum?: string[] };
  uniqueItems?: boolean;
}

interface PolicyBase {
  name: string;
  description: string;
  configSchema?: { properties: Record<string, JsonSchema> };
}
export interface ResourcePolicy extends PolicyBase {
  validateResource: (args: ResourceArgs, reportViolation: ReportViolation) => void;
}
export interface StackPolicy extends PolicyBase {
  validateStack: (args: StackArgs, reportViolation: ReportViolation) => void;
}
/** A stack policy that also reads each resource as the engine checks it (reporting nothing there). */
export interface StackPolicyReadingResources extends StackPolicy {
  validateResource: (args: ResourceArgs, reportViolation: ReportViolation) => void;
}

export interface MonthlyBudgetConfig {
  /** The most the stack's VPSs may cost a month, in USD, once the change is applied. */
  maxMonthlyUsd?: number;
  /** The most one change may add to the stack's monthly fees, in USD (new VPSs and growing changes). */
  maxMonthlyIncreaseUsd?: number;
}
export interface AllowedDataCentresConfig {
  /** The data centres a VPS may be in (`dcLocation` values). */
  dataCentres?: string[];
}
export interface LimitConfig {
  /** The largest value allowed, in MB. */
  limit?: number;
}

export const vpsLabel = (name: string): string => `VPS "${name}"`;
export const couldNotJudge = (policy: string, subject: string, why: string, fix: string): string =>
  `${policy} could not judge ${subject}: ${why}. ${fix}`;
export const notKnownInPreview = (input: string): string =>
  `its ${input} is not known during preview (it comes from another resource's output)`;
