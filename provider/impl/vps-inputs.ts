/**
 * The Vps inputs schema and check(). The schema is built inside a function and cached here, in the
 * implementation package: zod schemas hold bound functions and cannot be serialized
 * (pulumi-dynamic-providers.md §3), and this module is only ever require()d.
 */
import * as z from "zod";
import { DcLocation, Fqdn, VpsType } from "../../contract/index.js";
import { CREATION_TOKEN_KEY } from "../client/index.js";
import { containsUnknown, unknownKeys } from "./unknowns.js";
import { VPS_INPUT_FIELDS, VPS_INPUT_NAMES } from "./vps-fields.js";

const mb = (example: number, min: number) =>
  z
    .number({ error: `must be a number of megabytes, e.g. ${example}` })
    .int({ error: `must be a whole number of megabytes, e.g. ${example}` })
    .min(min, { error: `must be at least ${min} MB` });

function buildVpsInputsSchema() {
  return z.looseObject({
    domainName: Fqdn,
    distro: z
      .string({ error: "must be a distribution code such as deb12.64 (see getDistributions())" })
      .min(1, { error: "must not be empty; leave it out to let RimuHosting pick" }),
    dcLocation: z.enum(DcLocation.options, {
      error: `must be one of ${DcLocation.options.join(", ")} (see getDataCenters())`,
    }),
    pricingPlanCode: z
      .string({ error: "must be a pricing plan code such as MIRO1B (see getPricingPlans())" })
      .min(1, { error: "must not be empty; leave it out to let RimuHosting pick" }),
    memoryMb: mb(1024, 1),
    diskSpaceMb: mb(8192, 1),
    diskSpace2Mb: mb(0, 0),
    vpsType: z.enum(VpsType.options, { error: `must be one of ${VpsType.options.join(", ")}` }),
    billingOid: z
      .number({ error: "must be a billing method id from getBillingMethods()" })
      .int({ error: "must be a whole number (a billing_oid from getBillingMethods())" })
      .positive({ error: "must be a billing_oid from getBillingMethods()" }),
    hostServerOid: z
      .string({ error: 'must be a host server id given as a string, e.g. "764"' })
      .regex(/^\d+$/, { error: 'must be the digits of a host server id, e.g. "764"' }),
    runningState: z.enum(["RUNNING", "NOTRUNNING"], {
      error: 'must be "RUNNING" or "NOTRUNNING" (leave it out to leave the power state alone)',
    }),
    password: z
      .string({ error: "must be a string (wrap it in pulumi.secret())" })
      .min(8, { error: "must be at least 8 characters; leave it out to have RimuHosting generate one" }),
    controlPanel: z.string({ error: 'must be "webmin" or "" (none)' }),
    cloudConfig: z.string({ error: "must be the cloud-config text (a string)" }),
    files: z.array(
      z.object({
        path: z
          .string({ error: "must be an absolute path such as /root/.ssh/authorized_keys" })
          .startsWith("/", { error: "must be an absolute path such as /root/.ssh/authorized_keys" }),
        content: z.string({ error: "must be the file's content as a string" }),
      }),
      { error: "must be a list of { path, content } entries" },
    ),
    ipCount: z
      .number({ error: "must be the number of IPv4 addresses, e.g. 1" })
      .int({ error: "must be a whole number of IPv4 addresses" })
      .min(1, { error: "must be at least 1" }),
    metaData: z
      .record(z.string(), z.string({ error: "metadata values must be strings" }), {
        error: "must be an object of string keys and string values",
      })
      .refine((meta) => !Object.keys(meta).some((key) => key.startsWith("pulumi-rimuhosting:")), {
        error: `keys starting with "pulumi-rimuhosting:" are reserved (the provider stores ${CREATION_TOKEN_KEY} there)`,
      }),
    allowReinstall: z.boolean({ error: "must be true or false" }),
    timeouts: z.object(
      {
        createMinutes: z.number().positive({ error: "must be a positive number of minutes" }).optional(),
        updateMinutes: z.number().positive({ error: "must be a positive number of minutes" }).optional(),
        deleteMinutes: z.number().positive({ error: "must be a positive number of minutes" }).optional(),
      },
      { error: "must be { createMinutes?, updateMinutes?, deleteMinutes? }" },
    ),
    adoptOrderOid: z
      .number({ error: "must be the order oid of an existing VPS, e.g. 1234567" })
      .int({ error: "must be a whole number (an order oid)" })
      .positive({ error: "must be an order oid from getOrders()" }),
    // Set by the Vps class (project/stack/name), never by users: the seed of the creation token
    // (creation-token.ts). Not in VPS_INPUT_FIELDS, so diff() and the outputs never see it.
    creationScope: z
      .string({ error: "is set by the Vps class (project/stack/name); do not set it yourself" })
      .min(1, { error: "is set by the Vps class (project/stack/name); do not set it yourself" }),
  });
}

type FullSchema = ReturnType<typeof buildVpsInputsSchema>;
let cachedSchema: ReturnType<FullSchema["partial"]> | undefined;

/** The schema with every field optional except domainName (required, checked separately). */
function vpsInputsSchema() {
  cachedSchema ??= buildVpsInputsSchema().partial();
  return cachedSchema;
}

export type VpsInputs = z.infer<ReturnType<FullSchema["partial"]>>;
export type VpsTimeouts = NonNullable<VpsInputs["timeouts"]>;

export interface CheckFailure {
  property: string;
  reason: string;
}

/** Drops null values (an explicit null means "not set") and the engine's own `__provider`. */
export function setValues(bag: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(bag).filter(
      ([key, value]) => key !== "__provider" && value !== null && value !== undefined,
    ),
  );
}

/**
 * Validates new inputs. Values that are still unknown (preview) are not validated: they are checked
 * again when known. Returns per-field failures whose reasons say how to fix them.
 */
export function validateInputs(news: Record<string, unknown>): CheckFailure[] {
  const unknown = unknownKeys(news);
  const known = Object.fromEntries(Object.entries(setValues(news)).filter(([key]) => !unknown.has(key)));
  const failures: CheckFailure[] = [];
  if (!unknown.has("domainName") && known.domainName === undefined) {
    failures.push({
      property: "domainName",
      reason: "is required: the fully qualified domain name of the VPS, e.g. web1.example.com",
    });
  }
  const parsed = vpsInputsSchema().safeParse(known);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      failures.push({ property: issue.path.map(String).join("."), reason: issue.message });
    }
  }
  return failures;
}

const known = (value: unknown): boolean => value !== undefined && value !== null && !containsUnknown(value);

/** Equal values (JSON text), for comparing old and new inputs. */
export const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Installed by a reinstall only, so a change needs allowReinstall (from the one table, vps-fields.ts). */
const REINSTALL_FIELDS = VPS_INPUT_NAMES.filter((name) => VPS_INPUT_FIELDS[name] === "reinstall");

/**
 * Refuses, before anything is changed, what the service would refuse or what destroys data without
 * consent: compared with the previous inputs (olds).
 */
export function transitionFailures(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  if (news.allowReinstall !== true && !containsUnknown(news.allowReinstall)) {
    for (const field of REINSTALL_FIELDS) {
      const before = olds[field];
      const after = news[field];
      if (known(before) && known(after) && !same(before, after)) {
        failures.push({ property: field, reason: reinstallRefusal(field, before, after) });
      }
    }
  }
  failures.push(...shrinkFailures(olds, news));
  return failures;
}

/** A disk that would shrink from `olds` to `news` (RimuHosting only grows disks), one failure per disk. */
export function shrinkFailures(olds: Record<string, unknown>, news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const field of ["diskSpaceMb", "diskSpace2Mb"] as const) {
    const before = olds[field];
    const after = news[field];
    if (typeof before === "number" && typeof after === "number" && after < before) {
      failures.push({ property: field, reason: shrinkRefusal(field, before, after) });
    }
  }
  return failures;
}

/** The reason given when a reinstall field changes without allowReinstall. */
export function reinstallRefusal(field: string, before: unknown, after: unknown): string {
  // Values are named only for distro: the other reinstall fields may be secrets.
  const change = field === "distro" ? ` from ${String(before)} to ${String(after)}` : "";
  return (
    `changing ${field}${change} means reinstalling the VPS, which erases its disk. ` +
    `Set allowReinstall: true to reinstall in place (same order, same IP), ` +
    `or put ${field} back to its previous value.`
  );
}

/** The reason given for a disk shrink. */
export function shrinkRefusal(field: string, before: number, after: number): string {
  return (
    `a disk cannot shrink (${before} MB to ${after} MB): RimuHosting only grows disks. ` +
    `Keep ${field} at ${before} or more, or order a new VPS with the smaller disk.`
  );
}
