/**
 * The Vps inputs' schema: one zod validator per row of the field table (vps-fields.ts) and per internal input,
 * each failure in the user's words, and the VpsInputs type it gives. The schema is built when this module loads,
 * in the implementation package: zod schemas hold bound functions and cannot be serialized
 * (docs/dynamic-providers.md §3), and this module is only ever require()d.
 */
import * as z from "zod";
import { DcLocation, Fqdn, MIN_DISK_MB, MIN_MEMORY_MB, VpsType } from "../../../contract/index.js";
import { CREATION_TOKEN_KEY, PROVIDER_META_PREFIX } from "../../client/index.js";
import {
  PREVIEW_FLAG,
  RECORDED_ORDER_KEY,
  USER_SET_INTERNAL,
  type InternalInputName,
  type VpsInputName,
} from "../fields/vps-fields.js";
import { reverseDnsProblem, sshKeyProblem } from "./access.js";
import { digitsReadAsNumber } from "../engine/settings-source.js";

/**
 * Size limits: far above any real use, low enough that a mistake (a whole disk image read into
 * cloudConfig) fails in preview with the field named, not at the API with a message naming none.
 */
const LIMITS = {
  /** Characters of cloudConfig. */
  cloudConfigChars: 256 * 1024,
  /** Characters of one injected file's content. */
  fileContentChars: 1024 * 1024,
  /** Characters of all injected files together. */
  filesTotalChars: 4 * 1024 * 1024,
  /** Number of injected files. */
  fileCount: 100,
  /** Characters of a file path. */
  pathChars: 1024,
  /** Characters of a password. */
  passwordChars: 128,
  /** metaData entries, and characters of a key or value. */
  metaDataEntries: 50,
  metaDataChars: 255,
  /** Other free-text inputs (distro, plan, control panel). */
  codeChars: 64,
  memoryMb: 1024 * 1024,
  diskMb: 64 * 1024 * 1024,
  ipCount: 64,
  timeoutMinutes: 7 * 24 * 60,
  /** SSH public keys, and characters of one (an 16384-bit RSA key is about 2.8 KB). */
  sshKeys: 100,
  sshKeyChars: 16 * 1024,
} as const;

/** No NUL or other control characters (a path or code with one is a mistake, and unsafe on the server). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/**
 * An absolute path in normal form: starts with "/", no empty, "." or ".." segments (which would
 * write outside the intended place, e.g. /../../etc/shadow), no control characters, not a directory.
 */
function pathProblem(path: string): string | undefined {
  if (!path.startsWith("/")) return "must be an absolute path such as /root/.ssh/authorized_keys";
  if (path.length > LIMITS.pathChars) return `must be at most ${LIMITS.pathChars} characters`;
  if (!NO_CONTROL.test(path)) return "must not contain NUL or other control characters";
  if (path.endsWith("/")) return "must name a file, not a directory (it ends with /)";
  const segments = path.slice(1).split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === ".."))
    return 'must be a normalized absolute path: no "//", "/./" or "/../" segments';
  return undefined;
}

const mb = (example: number, min: number, max: number) =>
  z
    .number({ error: `must be a number of megabytes, e.g. ${example}` })
    .int({ error: `must be a whole number of megabytes, e.g. ${example}` })
    .min(min, { error: `must be at least ${min} MB${min > 1 ? " (RimuHosting's minimum)" : ""}` })
    .max(max, { error: `must be at most ${max} MB` });

const minutes = z
  .number({ error: "must be a number of minutes" })
  .positive({ error: "must be a positive number of minutes" })
  .max(LIMITS.timeoutMinutes, { error: `must be at most ${LIMITS.timeoutMinutes} minutes (a week)` });

const code = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .min(1, { error: "must not be empty; leave it out to let RimuHosting pick" })
    // abort: a huge value is not also run through the pattern (a regex over megabytes can overflow the stack)
    .max(LIMITS.codeChars, { error: `must be ${what}, at most ${LIMITS.codeChars} characters`, abort: true })
    .regex(/^[A-Za-z0-9._-]+$/, { error: `must be ${what}: letters, digits, ".", "_" or "-"` });

const text = (what: string, max: number) =>
  z
    .string({ error: `must be ${what} (a string)` })
    .max(max, { error: `must be at most ${max} characters (${what})`, abort: true });

/**
 * The inputs with a hostServerOid given as a whole number made the string of its digits, the host it names: YAML
 * reads a config value of digits as a number (`pulumi config set host 764`, then `hostServerOid: ${host}`), and its
 * program has no way to say otherwise (issue 65). Any other value is left for the schema to refuse.
 */
export function withHostAsText<T extends Record<string, unknown>>(inputs: T): T {
  const host = inputs.hostServerOid;
  if (typeof host !== "number" || !Number.isSafeInteger(host) || host < 0) return inputs;
  return { ...inputs, hostServerOid: String(host) };
}

/**
 * One validator per row of the field table (vps-fields.ts) plus the internal inputs: `satisfies` makes
 * the compiler refuse a row without a validator and a validator without a row.
 */
function buildVpsInputsSchema() {
  const shape = {
    domainName: Fqdn,
    distro: code("a distribution code such as deb12.64 (see getDistributions())"),
    dcLocation: z.enum(DcLocation.options, {
      error: `must be one of ${DcLocation.options.join(", ")} (see getDataCenters())`,
    }),
    pricingPlanCode: code("a pricing plan code such as MIRO1B (see getPricingPlans())"),
    memoryMb: mb(1024, MIN_MEMORY_MB, LIMITS.memoryMb),
    diskSpaceMb: mb(8192, MIN_DISK_MB, LIMITS.diskMb),
    diskSpace2Mb: mb(0, 0, LIMITS.diskMb),
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
      .string({
        // A YAML program reads a digits-only password as a number: say so, and how to quote it.
        error: (issue) =>
          typeof issue.input === "number"
            ? `must be the root password as text, and it arrived as a number${digitsReadAsNumber("password", true)}`
            : "must be the root password (a string)",
      })
      .max(LIMITS.passwordChars, {
        error: `must be at most ${LIMITS.passwordChars} characters (the root password)`,
        abort: true,
      })
      .min(8, { error: "must be at least 8 characters; leave it out to have RimuHosting generate one" })
      .regex(NO_CONTROL, { error: "must not contain NUL or other control characters" }),
    controlPanel: z.enum(["webmin", ""], { error: 'must be "webmin" or "" (none)' }),
    cloudConfig: text("the cloud-config text", LIMITS.cloudConfigChars).refine((v) => !v.includes("\u0000"), {
      error: "must not contain NUL characters",
    }),
    files: z
      .array(
        z.strictObject(
          {
            path: z
              .string({ error: "must be an absolute path such as /root/.ssh/authorized_keys" })
              .superRefine((path, ctx) => {
                const problem = pathProblem(path);
                if (problem) ctx.addIssue({ code: "custom", message: problem });
              }),
            content: text("the file's content", LIMITS.fileContentChars),
          },
          { error: "each entry must be { path, content } and nothing else" },
        ),
        { error: "must be a list of { path, content } entries" },
      )
      .max(LIMITS.fileCount, { error: `must hold at most ${LIMITS.fileCount} files` })
      .superRefine((files, ctx) => {
        const seen = new Set<string>();
        let total = 0;
        files.forEach((file, index) => {
          if (seen.has(file.path))
            ctx.addIssue({ code: "custom", path: [index, "path"], message: `${file.path} is listed twice` });
          seen.add(file.path);
          total += file.content.length;
        });
        if (total > LIMITS.filesTotalChars)
          ctx.addIssue({
            code: "custom",
            message: `hold ${total} characters in all; at most ${LIMITS.filesTotalChars} are allowed`,
          });
      }),
    sshKeys: z
      .array(
        z
          .string({ error: 'must be an OpenSSH public key such as "ssh-ed25519 AAAAC3Nza… me@laptop"' })
          .max(LIMITS.sshKeyChars, {
            error: `must be at most ${LIMITS.sshKeyChars} characters (one public key)`,
          })
          .superRefine((key, ctx) => {
            const problem = sshKeyProblem(key);
            if (problem) ctx.addIssue({ code: "custom", message: problem });
          }),
        { error: "must be a list of OpenSSH public keys, one key per entry" },
      )
      .max(LIMITS.sshKeys, { error: `must hold at most ${LIMITS.sshKeys} keys` }),
    reverseDns: z
      .string({ error: 'must be a host name such as web1.example.com, or "" to remove the record' })
      .superRefine((name, ctx) => {
        const problem = reverseDnsProblem(name);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    ipCount: z
      .number({ error: "must be the number of IPv4 addresses, e.g. 1" })
      .int({ error: "must be a whole number of IPv4 addresses" })
      .min(1, { error: "must be at least 1" })
      .max(LIMITS.ipCount, { error: `must be at most ${LIMITS.ipCount}` }),
    metaData: z
      .record(
        z
          .string()
          .min(1, { error: "metadata keys must not be empty" })
          // Before the character rule, which the prefix's colon breaks too: the reason is that it is reserved.
          .refine((key) => !key.startsWith(PROVIDER_META_PREFIX), {
            error: `keys starting with "${PROVIDER_META_PREFIX}" are reserved (the provider stores ${CREATION_TOKEN_KEY} there): rename the key`,
            abort: true,
          })
          .max(LIMITS.metaDataChars, {
            error: `metadata keys must be at most ${LIMITS.metaDataChars} characters`,
            abort: true,
          })
          .regex(/^[^\s:]+$/, { error: "metadata keys must not contain whitespace or colons" }),
        text("a metadata value", LIMITS.metaDataChars).regex(NO_CONTROL, {
          error: "metadata values must not contain control characters",
        }),
        // Only for a value that is no object: a bad key keeps the reason its own rule gave (invalid_key).
        {
          error: (issue) =>
            issue.code === "invalid_key"
              ? issue.issues[0]?.message
              : "must be an object of string keys and string values",
        },
      )
      .refine((meta) => Object.keys(meta).length <= LIMITS.metaDataEntries, {
        error: `must hold at most ${LIMITS.metaDataEntries} entries`,
      }),
    allowReinstall: z.boolean({ error: "must be true or false" }),
    timeouts: z.strictObject(
      {
        createMinutes: minutes.optional(),
        updateMinutes: minutes.optional(),
        deleteMinutes: minutes.optional(),
      },
      { error: "must be { createMinutes?, updateMinutes?, deleteMinutes? } and nothing else" },
    ),
    adoptOrderOid: z
      .number({ error: "must be the order oid of an existing VPS, e.g. 1234567" })
      .int({ error: "must be a whole number (an order oid)" })
      .positive({ error: "must be an order oid from getOrders()" }),
    // Set by the Vps class (project/stack/name), never by users: the seed of the creation token
    // (creation-token.ts). Not a row of the field table, so diff() and the outputs never see it.
    creationScope: z
      .string({ error: "is set by the Vps class (project/stack/name); do not set it yourself" })
      .min(1, { error: "is set by the Vps class (project/stack/name); do not set it yourself" })
      .max(1024, { error: "is set by the Vps class (project/stack/name); do not set it yourself" }),
    __creationNonce: z
      .string({ error: "is set by the provider; do not set it yourself" })
      .regex(/^[0-9a-f]{32}$/, { error: "is set by the provider; do not set it yourself" }),
  } satisfies Record<VpsInputName | InternalInputName, z.ZodType>;
  return z.object(shape);
}

type FullSchema = ReturnType<typeof buildVpsInputsSchema>;

/** The schema with every field optional except domainName (required, checked separately): a function of code alone. */
const VPS_INPUTS_SCHEMA = buildVpsInputsSchema().partial();
export const vpsInputsSchema = () => VPS_INPUTS_SCHEMA;

/** The keys the input schema validates (checked against the field table by a test). */
export function vpsInputSchemaKeys(): string[] {
  return Object.keys(vpsInputsSchema().shape);
}

/**
 * Keys the inputs carry besides the program's: the preview flag the Vps class sets (PREVIEW_FLAG), the internal
 * keys a program set itself (USER_SET_INTERNAL, refused by check()), the engine's serialized provider.
 */
export type VpsInputExtras = {
  [PREVIEW_FLAG]?: string | boolean;
  [USER_SET_INTERNAL]?: string[];
  __provider?: string;
  /** Added by check() when known, never by a program (planned-fee.ts, PLANNED_FEE_KEY). */
  plannedMonthlyFeeUsd?: number;
  /** Added by check() when known, never by a program (planned-fee.ts, CURRENT_FEE_KEY). */
  currentMonthlyFeeUsd?: number;
  /** The deployment of the check, added by check() in a real run, never by a program (engine/deployment.ts). */
  checkedInDeployment?: string;
  /** The order the state records, kept by read() and check(), never set by a program (RECORDED_ORDER_KEY). */
  [RECORDED_ORDER_KEY]?: number;
};

/**
 * The Vps inputs, as the schema gives them (every input of the field table and the internal ones, each
 * optional: domainName is required by check()), and the extras. The lifecycle is typed with it from the
 * front ends inward; check() is where a program's values are parsed against the schema.
 */
export type VpsInputs = z.infer<ReturnType<FullSchema["partial"]>> & VpsInputExtras;
