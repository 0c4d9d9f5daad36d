/**
 * The two kinds of row of the preview's case table (preview-cases.ts): a refused case, which must fail the preview
 * with its code and the input it names, and a risky one, which must pass and say what it does; and what rows build
 * their inputs from.
 */

import type { Args, BASELINE, Fixtures } from "./preview-fixtures";

export const ED25519 =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFlWCSQwPzZ/O47lFS6VStUBcrGtkOpQAP+mb0awEyTE admin@example.com";

export interface RefusedCase {
  id: string;
  /** What is wrong, in the user's words (the report's first column). */
  what: string;
  /** A new VPS (its args), or a change to the existing VPS `base`. */
  on: "new" | "existing";
  base?: keyof typeof BASELINE;
  args: (f: Fixtures) => Args;
  /**
   * Other VPSs of the same program, changed (existing: baseline VPSs, by name) or new, ahead of this one in program
   * order (`behind`: after it): what they need of a host adds up with what this one needs. The preview must fail
   * on one of them, with the code and input of the case: whichever the engine checks when the sum no longer fits.
   */
  alongside?: Record<string, Args>;
  behind?: Record<string, Args>;
  /** Also run on the native plugin with a YAML program (native-preview-cases.test.ts). */
  native?: true;
  /** Stack config set for this case only. */
  config?: (f: Fixtures) => Record<string, string>;
  /** The code, and the input or setting named right after it. */
  code: string;
  names: string;
  /** More words the message must hold. */
  says?: RegExp;
}

export interface RiskyCase {
  id: string;
  what: string;
  on: "new" | "existing";
  base?: keyof typeof BASELINE;
  args: (f: Fixtures) => Args;
  /** Lines the preview must show on the resource. */
  shows: RegExp[];
  /** The outputs a move changes show unknown, and the dependent record a pending update. */
  unknownIp?: true;
  /** A new VPS inside a component (its URN carries the component's type; the warnings must still reach it). */
  inGroup?: true;
}

/** A new VPS's inputs: the row's over the least a new VPS needs (a domain name and a data centre). */
export const newVps = (args: Args) => () => ({
  domainName: "n.example.com",
  dcLocation: "DCDALLAS",
  ...args,
});
