/**
 * The commands README.md, CONTRIBUTING.md and docs/*.md give a user or a contributor (issue 82): `npm run <script>`
 * and `npm test`, `npx <command>` and the package's own commands (package.json's `bin`), `node dist/<file>`, and the plugin's own commands (`pulumi-resource-rimuhosting
 * <command>`, `pulumi plugin run --kind resource rimuhosting -- <command>`, `"$plugin" <command>`), wherever a page
 * writes them: a code block's lines (with the block's marker, code-blocks.ts) and the inline code of its prose.
 * test/docs/command-inventory.test.ts holds each to the test that runs it (support/command-runs.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { COMMANDS } from "../../../provider/native/subcommands";
import { REPO_ROOT, codeBlocks, documentationFiles } from "./code-blocks";

export interface CommandUse {
  /** Repository-relative page. */
  file: string;
  /** 1-based line. */
  line: number;
  /** What the command is, as the inventory names it: "npm run demo", "npx rimuhosting-bill", "plugin bill", … */
  command: string;
  /** The reason of the `<!-- not run: … -->` marker of the code block the line is in, if it is in one. */
  notRun?: string;
}

/** The pages the inventory covers: README.md, docs/*.md and CONTRIBUTING.md. */
export const commandPages = (): string[] => [...documentationFiles(), "CONTRIBUTING.md"];

/** The package's own commands (package.json's `bin`): `npx <bin>` and `<bin>` are the one command `<bin>`. */
const BINS: string[] = Object.keys(
  (
    JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      bin: Record<string, string>;
    }
  ).bin,
);

const PLUGIN =
  /(?:pulumi plugin run --kind resource rimuhosting --|pulumi-resource-rimuhosting|"\$plugin")\s+([\w-]+)/g;

/** The commands in one piece of a page's text. */
export function commandsIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\bnpm (?:run ([\w:-]+)|(test)\b)/g))
    found.push(m[1] ? `npm run ${m[1]}` : "npm test");
  // npx's own options (`--yes`, `--allow-remote=root`, `-p <package>`) come before the command it runs
  for (const m of text.matchAll(/\bnpx ((?:(?:-p|--package) \S+ |--?[\w-]+(?:=\S+)? )*)([@\w][\w@/.-]*)/g))
    if (!BINS.includes(m[2]!)) found.push(`npx ${m[2]!}`);
  for (const bin of BINS) if (new RegExp(`(?<![\\w/.-])${bin}(?![\\w-])`).test(text)) found.push(bin);
  for (const m of text.matchAll(/\bnode (dist\/[\w./-]+\.js)/g)) found.push(`node ${m[1]!}`);
  for (const m of text.matchAll(PLUGIN)) if (m[1]! in COMMANDS) found.push(`plugin ${m[1]!}`);
  return found;
}

/** Every command `file` gives, line by line: a code block's whole lines, and the prose's inline code. */
export function commandUses(
  file: string,
  text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8"),
): CommandUse[] {
  const lines = text.split("\n");
  /** Each line inside a code block: the block's not-run reason, or "" for a block run or shown as an example. */
  const inBlock = new Map<number, string>();
  for (const block of codeBlocks(file, text)) {
    const reason = block.marker?.kind === "not run" ? block.marker.reason : "";
    const bodyLines = block.text.split("\n").length - 1;
    for (let line = block.line + 1; line <= block.line + bodyLines; line++) inBlock.set(line, reason);
  }
  return lines.flatMap((text, i) => {
    const line = i + 1;
    const reason = inBlock.get(line);
    const pieces = reason === undefined ? [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) : [text];
    return pieces.flatMap(commandsIn).map((command) => ({
      file,
      line,
      command,
      ...(reason ? { notRun: reason } : {}),
    }));
  });
}
