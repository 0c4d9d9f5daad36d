/**
 * redocly's recommended rules on the emulator's two OpenAPI documents: the RimuHosting routes' (/r/openapi.json) and
 * the control API's (/__emulator/openapi.json). @redocly/cli is too large to be a devDependency, so the test runs
 * the copy in npx's cache (`npx --yes @redocly/cli --version` puts it there); without one it is skipped, saying so,
 * and with CI=true it fails instead.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { controlApiDescription } from "../../emulator/control/openapi.js";
import { rimuhostingApiDescription } from "../../emulator/rimuhosting-openapi.js";
import { useTempDir } from "../helpers/use-emulator.js";

const tmp = useTempDir();

/** @redocly/cli's command in npx's cache, or undefined. */
function cachedRedocly(): string | undefined {
  const root = path.join(homedir(), ".npm", "_npx");
  if (!existsSync(root)) return undefined;
  return readdirSync(root)
    .map((dir) => path.join(root, dir, "node_modules", "@redocly", "cli", "bin", "cli.js"))
    .find((file) => existsSync(file));
}
const redocly = cachedRedocly();
if (!redocly && process.env.CI === "true")
  throw new Error(
    "@redocly/cli is not in npx's cache: run `npx --yes @redocly/cli --version` once before the tests.",
  );

const DOCUMENTS = {
  "rimuhosting.json": rimuhostingApiDescription(),
  "control.json": controlApiDescription(),
};

describe("redocly lint, recommended rules", () => {
  for (const [name, document] of Object.entries(DOCUMENTS)) {
    (redocly ? test : test.skip)(
      redocly
        ? `${name} passes`
        : `${name} passes (skipped: @redocly/cli is not in npx's cache; \`npx --yes @redocly/cli --version\` fetches it)`,
      () => {
        const file = path.join(tmp(), name);
        writeFileSync(file, JSON.stringify(document));
        let output: string;
        try {
          output = execFileSync(process.execPath, [redocly!, "lint", file], {
            encoding: "utf8",
            stdio: "pipe",
          });
        } catch (error) {
          const { stdout, stderr } = error as { stdout: string; stderr: string };
          throw new Error(`redocly lint ${name} failed:\n${stdout}\n${stderr}`, { cause: error });
        }
        expect(output).not.toMatch(/error/i);
      },
    );
  }
});
