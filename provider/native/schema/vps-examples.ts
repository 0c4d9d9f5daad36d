/**
 * The examples and the Import section of the Vps resource's schema description, in the shape Pulumi's code
 * generators and the Pulumi Registry read (`{{% examples %}}`, one `{{% example %}}` with a code block per
 * language, then `## Import`): each SDK keeps its own language's block in the resource's doc comment, so IDE help
 * shows a program in the reader's language. The programs are the quickstarts in examples/, read as they are: the
 * tests run those files through the CLI, and the docs pages include the same files (test/docs checks it).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The quickstart in each language the generated SDKs serve, in the Registry's order of tabs. */
export const QUICKSTART_EXAMPLES = [
  { language: "typescript", file: "examples/typescript-quickstart/index.ts" },
  { language: "python", file: "examples/python-quickstart/__main__.py" },
  { language: "go", file: "examples/go-quickstart/main.go" },
  { language: "java", file: "examples/java-quickstart/src/main/java/myproject/App.java" },
  { language: "yaml", file: "examples/yaml-quickstart/Pulumi.yaml" },
] as const;

/** A fenced block of `text` (ending in a newline) for `language`. */
const fenced = (language: string, text: string): string => `\`\`\`${language}\n${text}\`\`\`\n`;

const IMPORT_SECTION = [
  "## Import",
  "",
  "A VPS ordered outside Pulumi is imported by its order number, the `orderOid` RimuHosting's control panel and",
  "`getOrders` show. Nothing about the VPS changes; the next preview shows no change once the program declares it",
  "with the inputs the import printed:",
  "",
  fenced("sh", "$ pulumi import rimuhosting:index:Vps web 1234567\n"),
].join("\n");

/** The resource description `summary` followed by the examples (read from `root`, the repository) and Import. */
export function vpsDescription(root: string, summary: string): string {
  const blocks = QUICKSTART_EXAMPLES.map(({ language, file }) =>
    fenced(language, fs.readFileSync(path.join(root, file), "utf8")),
  );
  return [
    summary,
    "",
    "{{% examples %}}",
    "## Example Usage",
    "",
    "{{% example %}}",
    "### One VPS on a data centre's first VPS plan, running Debian 12",
    "",
    blocks.join(""),
    "{{% /example %}}",
    "{{% /examples %}}",
    "",
    IMPORT_SECTION,
  ].join("\n");
}
