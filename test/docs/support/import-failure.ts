/**
 * docs/troubleshooting.md quotes what `pulumi import` of the dynamic Vps prints, once per @pulumi/pulumi version
 * (the dynamic-provider host that fails is part of the SDK, and its message changes between versions: 3.248's,
 * which npm picked on Node 20, was another). The README's project (npm's pick on the running Node) and the docs'
 * project (the repository's lockfile) each check the quote for the SDK they have.
 */
import { recipe } from "./code-blocks";
import { shownLinePattern } from "./shell";

/** The quoted output, by @pulumi/pulumi minor version. */
const OUTPUT_BY_SDK: Record<string, string> = {
  "3.270": "docs/troubleshooting.md#import-sdk-3-270",
  // npm's pick for a new project from 2026-11-26: the same lines, run and compared (the README's project).
  "3.276": "docs/troubleshooting.md#import-sdk-3-270",
};

/** The page's command: `pulumi import …`, as arguments after `pulumi`. */
export function importCommandArgs(): string[] {
  const lines = recipe("docs/troubleshooting.md#import")
    .split("\n")
    .filter((line) => line.trim() !== "");
  if (lines.length !== 1 || !lines[0]!.startsWith("pulumi import ")) {
    throw new Error(
      `docs/troubleshooting.md#import should be one \`pulumi import\` line, not:\n${lines.join("\n")}`,
    );
  }
  return lines[0]!.replace(/^pulumi /, "").split(/\s+/);
}

/** The lines the page says `pulumi import` prints with this SDK, as patterns. */
export function importFailureFor(sdkVersion: string): RegExp[] {
  const minor = sdkVersion.split(".").slice(0, 2).join(".");
  const address = OUTPUT_BY_SDK[minor];
  if (!address) {
    throw new Error(
      `docs/troubleshooting.md quotes \`pulumi import\`'s output for @pulumi/pulumi ${Object.keys(
        OUTPUT_BY_SDK,
      ).join(" and ")}, not ${sdkVersion}: run the page's command with it and add the output`,
    );
  }
  return recipe(address)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(shownLinePattern);
}
