/**
 * The fenced code blocks of the user documentation (README.md and docs/*.md), and what becomes of each. Every
 * block carries a marker, an HTML comment on the nearest non-blank line above its opening fence (GitHub does not
 * show it):
 *
 *   <!-- recipe: <id> -->     a test runs the block; it finds it as recipe("<file>#<id>")
 *   <!-- example: <path> -->  the block is the file <path> of the repository (an example program a test runs), word
 *                             for word: the page shows the file, and test/docs/code-blocks.test.ts holds the two equal
 *   <!-- not run: <why> -->   the block cannot be run as it stands (output, a fragment, a long measurement), and why
 *
 * test/docs/code-blocks.test.ts checks that every block has one, that every recipe is run by a test file, and
 * that no marker points at nothing.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const REPO_ROOT = path.resolve(__dirname, "../../..");

export type Marker =
  { kind: "recipe"; id: string } | { kind: "example"; file: string } | { kind: "not run"; reason: string };

export interface CodeBlock {
  /** Repository-relative path, e.g. "docs/testing.md". */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string ("ts", "bash", ""). */
  lang: string;
  /** The block's text, without the fences, ending in a newline. */
  text: string;
  marker?: Marker;
}

/** README.md and every page of docs/. */
export function documentationFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(REPO_ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

const MARKER = /^<!--\s*(recipe|example|not run):\s*(.*?)\s*-->$/;
const FENCE = /^(\s*)(`{3,}|~{3,})(.*)$/;

/** The code blocks of one file, in order, each with the marker above it (if any). */
export function codeBlocks(
  file: string,
  text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8"),
): CodeBlock[] {
  const lines = text.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open;
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^\\s*${fence![0]}{${fence!.length},}\\s*$`).test(lines[end]!))
      end++;
    const body = lines
      .slice(i + 1, end)
      .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line));
    let above = i - 1;
    while (above >= 0 && lines[above]!.trim() === "") above--;
    const found = above >= 0 ? MARKER.exec(lines[above]!.trim()) : null;
    const marker: Marker | undefined = !found
      ? undefined
      : found[1] === "recipe"
        ? { kind: "recipe", id: found[2]! }
        : found[1] === "example"
          ? { kind: "example", file: found[2]! }
          : { kind: "not run", reason: found[2]! };
    blocks.push({ file, line: i + 1, lang: info!.trim(), text: body.join("\n") + "\n", marker });
    i = end;
  }
  return blocks;
}

/** The text of the block marked `<!-- recipe: <id> -->` in `<file>`, addressed as "<file>#<id>". */
export function recipe(address: string): string {
  const [file, id] = address.split("#");
  const matches = codeBlocks(file!).filter((b) => b.marker?.kind === "recipe" && b.marker.id === id);
  if (matches.length !== 1) {
    throw new Error(`${address}: ${matches.length} code blocks are marked <!-- recipe: ${id} --> in ${file}`);
  }
  return matches[0]!.text;
}

/** A recipe's lines that are commands: blank lines and `#` comment lines left out, trailing comments cut. */
export function commandLines(script: string): string[] {
  return script
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** A recipe's whole-line `#` comments (the output it shows), without the "# ". */
export function shownOutput(script: string): string[] {
  return script
    .split("\n")
    .filter((line) => line.startsWith("# "))
    .map((line) => line.slice(2));
}
