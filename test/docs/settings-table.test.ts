// The Configuration table of docs/installation-configuration.md is the one list of the provider's settings: every
// setting the provider takes is a row of it, with its stack config key and its environment variable, and the README
// links to it rather than keeping rows of its own.
import * as fs from "node:fs";
import * as path from "node:path";
import { CONFIG_NAMESPACE, ENV_VARS, READ_TIMEOUT_ENV_VAR, SETTING_ENV_VARS } from "../../provider/config";
import { PROVIDER_SETTINGS } from "../../provider/native/provider-config";
import { REPO_ROOT } from "./support/code-blocks";

const PAGE = "docs/installation-configuration.md";
const read = (file: string): string => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");

/** The rows of the table under `## Configuration`. */
function settingsRows(): string[] {
  // The section runs to the next level-2 heading, or to the end of the page.
  const section = /^## Configuration\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(read(PAGE))?.[1] ?? "";
  return section.split("\n").filter((line) => line.startsWith("| "));
}

const ENV_VAR_OF: Record<string, string> = { ...ENV_VARS, ...SETTING_ENV_VARS };

describe(`${PAGE}'s settings table`, () => {
  it.each(PROVIDER_SETTINGS.map((key) => [key]))("has %s: its stack config key and its variable", (key) => {
    const row = settingsRows().find((line) => line.includes(`\`${CONFIG_NAMESPACE}:${key}\``));
    expect(row).toContain(`\`${ENV_VAR_OF[key]}\``);
  });

  it("has the read timeout, set in the environment only", () => {
    expect(settingsRows().some((line) => line.includes(`\`${READ_TIMEOUT_ENV_VAR}\``))).toBe(true);
  });

  it("is the README's: the README links to it and keeps no settings rows", () => {
    const readme = read("README.md");
    expect(readme).toContain(`(${PAGE}#configuration)`);
    expect(
      readme.split("\n").filter((line) => line.startsWith("| ") && line.includes("RIMUHOSTING_")),
    ).toEqual([]);
  });
});
