/**
 * Text layout for generated files, written the way prettier writes it (`npm run lint` runs
 * `prettier --check` on them), so the generator needs no formatter at run time.
 */

/** prettier's line width (.prettierrc.json). */
export const PRINT_WIDTH = 110;

/** Words broken into lines of at most `width` characters. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** A paragraph broken into lines of at most `width` characters (prettier keeps Markdown line breaks). */
export function wrap(text: string, width = PRINT_WIDTH): string {
  return wrapWords(text, width).join("\n");
}

/**
 * A JSDoc comment at `indent` spaces: the text wrapped to the line width, then any `@tag` lines. A one-line
 * comment when it fits and has no tags.
 */
export function jsdoc(text: string, tags: readonly string[], indent: number): string {
  if (text.includes("*/") || tags.some((tag) => tag.includes("*/")))
    throw new Error(`a description may not contain "*/": ${text}`);
  const pad = " ".repeat(indent);
  const single = `${pad}/** ${text} */`;
  if (tags.length === 0 && single.length <= PRINT_WIDTH) return single;
  const body = [...wrapWords(text, PRINT_WIDTH - indent - 3), ...tags];
  return [`${pad}/**`, ...body.map((line) => `${pad} * ${line}`), `${pad} */`].join("\n");
}

/**
 * A Markdown bullet list, each item wrapped to the line width with its following lines indented two spaces, as
 * prettier keeps it. A following line that Markdown would read as the start of a block (a list item, a heading, a
 * quote) is refused rather than written.
 */
export function markdownList(items: readonly string[]): string {
  return items
    .map((item) => {
      const lines = wrapWords(item, PRINT_WIDTH - 2);
      const starter = lines.slice(1).find((line) => /^([-+*#>]\s|\d+[.)]\s)/.test(line));
      if (starter !== undefined)
        throw new Error(`a list item's line would start a Markdown block: ${starter}`);
      return lines.map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`)).join("\n");
    })
    .join("\n");
}

/**
 * JSON as prettier prints it: every object expanded one key a line (prettier keeps an object expanded
 * when it was written so), an array on one line where it fits (prettier collapses those), else one
 * element a line.
 */
export function prettyJson(value: unknown): string {
  return `${printJson(value, 0, 0, false)}\n`;
}

function printJson(value: unknown, indent: number, column: number, comma: boolean): string {
  const pad = " ".repeat(indent);
  const inner = " ".repeat(indent + 2);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const flat = `[${value.map((item) => printJson(item, 0, 0, false)).join(", ")}]`;
    if (!flat.includes("\n") && column + flat.length + (comma ? 1 : 0) <= PRINT_WIDTH) return flat;
    const items = value.map(
      (item, i) => `${inner}${printJson(item, indent + 2, inner.length, i < value.length - 1)}`,
    );
    return `[\n${items.join(",\n")}\n${pad}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const members = entries.map(([key, v], i) => {
      const head = `${inner}${JSON.stringify(key)}: `;
      return head + printJson(v, indent + 2, head.length, i < entries.length - 1);
    });
    return `{\n${members.join(",\n")}\n${pad}}`;
  }
  return JSON.stringify(value);
}
