/**
 * The shape of a row of the Vps fields table (vps-fields.ts): what a change to an input does, its type, its
 * default and what users read about it. Types, and the words for what a change does; the table itself is in vps-fields.ts.
 * No zod here: the Vps class imports the table in users' programs.
 */
/**
 * - `parameters`: resized in place (PUT …/vps/parameters), which restarts the VPS.
 * - `move`: moved to another host server (PUT …/vps/host-server); the IPs may change.
 * - `reinstall`: applied by reinstalling in place (PUT …/vps/reinstall), which erases the disk; needs allowReinstall.
 * - `running-state`: started or stopped (PUT …/vps/running-state).
 * - `reverse-dns`: set in place (PUT …/ptr;ip=…), after a create, a move (a new address) or a change.
 * - `replace`: the API cannot change it on an existing order, so a new VPS is ordered and the old one cancelled.
 * - `setting`: a provider setting; recorded, no API call.
 * - `order-only`: used when ordering; the API cannot change it later and a replacement would be out of
 *   proportion, so a change is reported (warning) and not applied.
 * - `adopt`: read only by create(); a different order oid later means a replacement.
 */
export type ChangeKind =
  | "parameters"
  | "move"
  | "reinstall"
  | "running-state"
  | "reverse-dns"
  | "replace"
  | "setting"
  | "order-only"
  | "adopt";

/**
 * The type of an input or output, in the terms both TypeScript and the Pulumi package schema need:
 * `integer` is a whole number (`number` in TypeScript); an enum is a string of one of the values (named
 * after its exported type in contract/literals.ts, if it has one; outputs widen it to `string`, since
 * the service may report other values); `object` names one of VPS_OBJECT_TYPES.
 */
export type FieldType =
  | "string"
  | "number"
  | "integer"
  | "boolean"
  | { readonly enum: readonly string[]; readonly name?: string }
  | { readonly array: FieldType }
  | { readonly map: FieldType }
  | { readonly object: string };

/** A literal default the service (or the provider) applies when the input is left out. */
export type DefaultValue = string | number | boolean;

/** What happens when an input or property is left out, in users' words: its `default`, else its literal. */
export function defaultWords(rule: { default?: string; defaultValue?: DefaultValue }): string | undefined {
  return rule.default ?? (rule.defaultValue === undefined ? undefined : String(rule.defaultValue));
}

/** What users read about an input's output (the Vps class's declared output, the schema, docs/vps.md). */
export interface OutputRule {
  /** One text, in users' words: the output's JSDoc, its schema description and its docs/vps.md row. */
  description: string;
  /** Set on every Vps once created (no `| undefined`; listed as `required` in the schema). */
  alwaysSet?: true;
  /**
   * The output's `@default` where the usual words do not fit ("always set"; "undefined when the service
   * does not say" for a reported input; "undefined unless the input is set" otherwise).
   */
  default?: string;
}

export interface FieldRule {
  /** What a change does to an existing VPS. */
  change: ChangeKind;
  /** The wire fields (dotted paths of NewVPSRequest and friends) that carry it, for error messages. */
  wire?: readonly string[];
  /** May hold a secret: kept secret in the state's inputs and outputs. */
  secret?: true;
  /**
   * The service reports it on the order (orderFields() in ../wire-mapping/order-fields.ts reads it back):
   * a refresh sees drift, and a failed update step is detected by comparing it. Unreported inputs keep the
   * recorded value.
   */
  reported?: true;
  /** Can only grow: a smaller value is refused in check() and again before an update starts. */
  growOnly?: true;
  /**
   * A plain fact about the VPS (a size, its state, its host, distro or data centre): its value may be printed in a
   * message, such as the drift a refresh shows. Every other input is named there without its value: a secret, and
   * what the user wrote that may be private (metadata, SSH keys, a PTR name).
   */
  printable?: true;
  /**
   * Sent as given at its first wire path (`wire[0]`) when ordering, quoting, and (a reinstall input)
   * reinstalling: toWire() in vps-requests.ts. Inputs that need shaping (ipCount, files, sshKeys,
   * metaData) are built there by hand.
   */
  asIs?: true;
  /** Its type: VpsArgs's property, the schema's, docs/vps.md's type column. */
  type: FieldType;
  /** The program must set it. */
  required?: true;
  /**
   * What happens when it is left out, in users' words (`@default`, docs/vps.md), where `defaultValue` alone does not
   * say it (defaultWords()).
   */
  default?: string;
  /**
   * The same default as a literal, only where the service (or the provider) applies exactly that value
   * when the input is left out (never for "RimuHosting picks"): the schema's `default`.
   */
  defaultValue?: DefaultValue;
  /**
   * What the input is, in users' words (Markdown). What a change does is not written here: inputDescription()
   * adds it from `change` (changeWords()), and the two make VpsArgs's JSDoc, the schema's description and
   * docs/vps.md's Inputs row. No `|` (a Markdown table cell) and no `*\/` (a comment).
   */
  description: string;
  /** A section of docs/vps.md (or another page, relative to it) that says more: a link in the docs row. */
  see?: { title: string; href: string };
  /** The declared output of the same name. */
  output: OutputRule;
}

/** A property of an object type (VPS_OBJECT_TYPES). */
export interface PropertyRule {
  type: FieldType;
  required?: true;
  default?: string;
  defaultValue?: DefaultValue;
  description: string;
}

/** An object type an input takes (`VpsFile`, `VpsTimeouts`): an exported interface and a schema type. */
export interface ObjectTypeRule {
  description: string;
  properties: Record<string, PropertyRule>;
}

/**
 * What a change of an input does, in users' words: the end of its description wherever users read it, derived
 * from the row's `change` (and `growOnly`; for an input the service does not report, only a change from one
 * value to another replaces, vps-changes.ts). Nothing for a provider setting: it makes no API call.
 */
export function changeWords(rule: FieldRule): string | undefined {
  switch (rule.change) {
    case "replace":
      return rule.reported
        ? "A change replaces the VPS."
        : "A change from one value to another replaces the VPS.";
    case "parameters":
      return `${rule.growOnly ? "Can only grow; a" : "A"} change resizes in place (the VPS restarts; billing changes).`;
    case "move":
      return "Setting or changing it moves the VPS (takes 5–10 minutes per GB; the IP may change).";
    case "reinstall":
      return "A change reinstalls the VPS in place, erasing its disk, and needs `allowReinstall: true`.";
    case "running-state":
      return "A change starts or stops the VPS.";
    case "reverse-dns":
      return "Set in place after the VPS is created, when it changes, and again after a move (a new address).";
    case "order-only":
      return "Used only when ordering: a later change is reported but not applied.";
    case "adopt":
      return "Setting a different oid later replaces the resource.";
    case "setting":
      return undefined;
  }
}

/** An input's description as users read it: what it is (the row's text), then what a change does. */
export function inputDescription(rule: FieldRule): string {
  const words = changeWords(rule);
  return words === undefined ? rule.description : `${rule.description} ${words}`;
}
