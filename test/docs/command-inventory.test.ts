/**
 * Every command README.md, CONTRIBUTING.md and docs/*.md give a user or a contributor (`npm run …` and `npm test`,
 * `npx …` and the package's commands, `node dist/…`, the plugin's own commands; support/command-uses.ts finds them)
 * is run from the files a user runs by a test the inventory names (support/command-runs.ts), or says why not: in the
 * inventory, or by the `<!-- not run: … -->` marker of the code block it is in (issue 82). A page line with a command
 * neither names fails here, as does an entry no page uses, a runner that does not exist or does not show it runs the
 * command, and a script no longer in package.json.
 * Static: it reads files, runs nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./support/code-blocks";
import { COMMAND_RUNS } from "./support/command-runs";
import { commandPages, commandUses, type CommandUse } from "./support/command-uses";

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");

/** A test file's text and that of the modules it imports by a relative path (one level: its support modules). */
function withImports(file: string): string {
  const text = read(file);
  const imported = [...text.matchAll(/from "(\.{1,2}\/[^"]+)"/g)].flatMap((m) => {
    const module = path.join(path.dirname(file), `${m[1]!.replace(/\.js$/, "")}.ts`);
    return fs.existsSync(path.join(REPO_ROOT, module)) ? [read(module)] : [];
  });
  return [text, ...imported].join("\n");
}

/** The uses no entry and no marker accounts for, as "<file>:<line> <command>". */
function unaccounted(uses: CommandUse[]): string[] {
  return uses
    .filter((u) => !(u.command in COMMAND_RUNS) && !u.notRun)
    .map((u) => `${u.file}:${u.line} ${u.command}`);
}

const uses = commandPages().flatMap((file) => commandUses(file));

describe("the commands the pages give (test/docs/support/command-runs.ts)", () => {
  it("are found: the demo, the emulator, the bill, the plugin's commands", () => {
    const commands = new Set(uses.map((u) => u.command));
    for (const command of [
      "npm run demo",
      "rimuhosting-emulator",
      "rimuhosting-bill",
      "plugin emulator",
      "npm test",
    ])
      expect(commands).toContain(command);
    expect(uses.length).toBeGreaterThan(100);
  });

  it("each is run by a test the inventory names, or says why not (the inventory, or its block's not-run marker)", () => {
    expect(unaccounted(uses)).toEqual([]);
  });

  it("the inventory names only commands a page gives, each runner a file that shows it runs the command", () => {
    const used = new Set(uses.map((u) => u.command));
    expect(Object.keys(COMMAND_RUNS).filter((command) => !used.has(command))).toEqual([]);
    const unshown = Object.entries(COMMAND_RUNS).flatMap(([command, run]) =>
      "runner" in run &&
      !(fs.existsSync(path.join(REPO_ROOT, run.runner)) && withImports(run.runner).includes(run.shows))
        ? [`${command}: ${run.runner} does not show ${run.shows}`]
        : [],
    );
    expect(unshown).toEqual([]);
    const reasonless = Object.entries(COMMAND_RUNS).filter(
      ([, run]) => "notRun" in run && run.notRun.length < 20,
    );
    expect(reasonless).toEqual([]);
  });

  it("every `npm run` the pages give is a script of package.json", () => {
    const scripts = JSON.parse(read("package.json")).scripts as Record<string, string>;
    const missing = uses.filter((u) => u.command.startsWith("npm run ") && !(u.command.slice(8) in scripts));
    expect(missing.map((u) => `${u.file}:${u.line} ${u.command}`)).toEqual([]);
  });

  it("a new page line with a command and no entry or marker is reported; one in a not-run block is not", () => {
    const page = [
      "Run `npm run brand-new` and `npx rimuhosting-bill --stack dev`.",
      "",
      "<!-- not run: a command for the reader's shell -->",
      "",
      "```bash",
      "node dist/tools/other.js",
      "```",
      "",
      "```bash",
      "pulumi plugin run --kind resource rimuhosting -- bill --stack dev",
      "```",
    ].join("\n");
    const found = commandUses("page.md", page);
    expect(found.map((u) => [u.line, u.command, u.notRun ?? ""])).toEqual([
      [1, "npm run brand-new", ""],
      [1, "rimuhosting-bill", ""],
      [6, "node dist/tools/other.js", "a command for the reader's shell"],
      [10, "plugin bill", ""],
    ]);
    expect(unaccounted(found)).toEqual(["page.md:1 npm run brand-new"]);
  });
});
