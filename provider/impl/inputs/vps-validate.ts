/**
 * Validation of new inputs against the input schema (vps-input-schema.ts): per-field failures in the user's
 * words, with the value given where it is short and not secret, and the one rule across inputs (sshKeys and a
 * files entry for the same path).
 */
import { domainToASCII } from "node:url";
import { unwrapSecret } from "./secret-values.js";
import { AUTHORIZED_KEYS_PATH } from "./access.js";
import { SECRET_FIELDS } from "../fields/vps-fields.js";
import type { CheckFailure } from "../engine/check-failure.js";
import { vpsInputsSchema } from "./vps-input-schema.js";
import { isKnownKey } from "./vps-input-keys.js";
import type { ParsedInputs } from "./vps-values.js";

/**
 * The value the user gave, as written in a failure (`given: "2048"`), when it is short and not secret: the
 * engine cannot print it itself without its own notation (docs/errors.md), and a secret or 10 MB of text must
 * never be echoed.
 */
function given(known: Record<string, unknown>, path: readonly PropertyKey[]): string {
  const top = String(path[0] ?? "");
  if ((SECRET_FIELDS as readonly string[]).includes(top)) return "";
  let value: unknown = known;
  for (const segment of path) value = (value as Record<PropertyKey, unknown> | undefined)?.[segment];
  const text = JSON.stringify(value);
  return text !== undefined && text.length <= 60 ? ` (given: ${text})` : "";
}

/**
 * Validates new inputs, as parsed (parseInputs). Values that are still unknown (preview) are not validated: they
 * are checked again when known. Returns per-field failures whose reasons say how to fix them.
 */
export function validateInputs(news: ParsedInputs): CheckFailure[] {
  const { unknown } = news;
  const known: Record<string, unknown> = news.known;
  const failures: CheckFailure[] = [];
  if (!unknown.has("domainName") && known.domainName === undefined) {
    failures.push({
      property: "domainName",
      reason: "is required: the fully qualified domain name of the VPS, e.g. web1.example.com",
    });
  }
  const parsed = vpsInputsSchema().safeParse(
    Object.fromEntries(Object.entries(known).filter(([key]) => isKnownKey(key))),
  );
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      failures.push({
        property: issue.path.map(pathSegment).join("."),
        // A bad key is named in the path; the value under it says nothing about what is wrong.
        reason:
          issue.message +
          (issue.code === "invalid_key" ? "" : given(known, issue.path)) +
          (issue.path.join(".") === "domainName" ? asciiHint(known.domainName) : ""),
      });
    }
  }
  failures.push(...sshKeysConflict(known));
  return failures;
}

/**
 * For a domain name in letters DNS does not hold (an international name as people write it), the form DNS writes it
 * in, which RimuHosting's fully qualified domain name is (docs/rimuhosting-api.md, "Domain names").
 */
function asciiHint(domainName: unknown): string {
  if (typeof domainName !== "string" || /^\p{ASCII}*$/u.test(domainName)) return "";
  const ascii = domainToASCII(domainName);
  return ascii === "" ? "" : `; DNS writes this name as ${ascii}: give that form`;
}

/** sshKeys writes /root/.ssh/authorized_keys: a `files` entry for the same path would be overwritten. */
function sshKeysConflict(known: Record<string, unknown>): CheckFailure[] {
  const keys = known.sshKeys;
  const files = unwrapSecret(known.files);
  if (!Array.isArray(keys) || keys.length === 0 || !Array.isArray(files)) return [];
  const clash = files.some(
    (file) =>
      typeof file === "object" && file !== null && (file as { path?: unknown }).path === AUTHORIZED_KEYS_PATH,
  );
  if (!clash) return [];
  return [
    {
      property: "sshKeys",
      reason:
        `sshKeys installs ${AUTHORIZED_KEYS_PATH}, and files also has an entry for ${AUTHORIZED_KEYS_PATH}: ` +
        `one would overwrite the other. Put every key in sshKeys and remove that files entry, ` +
        `or leave sshKeys out and write the whole file with files.`,
    },
  ];
}

/** A path segment as shown in a failure: a huge metadata key is cut, never echoed whole. */
function pathSegment(segment: PropertyKey): string {
  const text = String(segment);
  return text.length > 64 ? `${text.slice(0, 32)}…(${text.length} characters)` : text;
}
