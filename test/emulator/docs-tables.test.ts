/**
 * docs/emulator.md's Options table and Endpoints list against the code, both ways: every option of
 * EmulatorOptionsSchema has a row with its default and CLI flags (each flag sets that option and no other), and
 * every row names an option and a flag the code has; every route the emulator registers under /r is in the
 * Endpoints list with its id, method and path (contract/ ENDPOINTS), and every item is a route it registers.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ENDPOINTS } from "../../contract/index";
import { CLI_FLAGS, parseCliArgs } from "../../emulator/cli";
import { buildEmulator } from "../../emulator/index";
import { EmulatorOptionsSchema, resolveOptions } from "../../emulator/options";
import { registeredRoutes } from "../helpers/registered-routes";

const PAGE = readFileSync(join(resolve(__dirname, "../.."), "docs/emulator.md"), "utf8");

/** The rows (cells, trimmed) of the first Markdown table under the heading `## <title>`. */
function tableRows(title: string): string[][] {
  const section = PAGE.slice(PAGE.indexOf(`\n## ${title}\n`) + 1).split(/\n## /)[0]!;
  const lines = section.split("\n").filter((line) => line.startsWith("|"));
  return lines.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim()),
  );
}

/**
 * The items of the bullet list under the heading `## <title>`, each `- **<id>** <methods and paths>: <notes>`
 * (an item's wrapped lines joined), as [id, methods and paths].
 */
function listItems(title: string): string[][] {
  const section = PAGE.slice(PAGE.indexOf(`\n## ${title}\n`) + 1).split(/\n## /)[0]!;
  const items = section.split(/\n(?=- )/).filter((item) => item.startsWith("- "));
  return items.map((item) => {
    const match = /^- \*\*(\w+)\*\* (.*?): /.exec(item.replace(/\s+/g, " "));
    if (!match)
      throw new Error(`an Endpoints item is not "- **<id>** <methods and paths>: <notes>": ${item}`);
    return [match[1]!, match[2]!];
  });
}

/** The backticked spans of a cell. */
const spans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe("docs/emulator.md's Options table", () => {
  const rows = tableRows("Options").map(([option, flags, defaults]) => ({
    option: spans(option!)[0]!,
    flags: [...flags!.matchAll(/--[a-z-]+/g)].map((m) => m[0]),
    defaults: defaults!,
  }));
  const cliDefaults = parseCliArgs([]) as Record<string, unknown>;

  it("has a row for exactly the options startEmulator takes", () => {
    expect(rows.map((row) => row.option).sort()).toEqual(Object.keys(EmulatorOptionsSchema.shape).sort());
  });

  it("names exactly the command's flags (--help aside)", () => {
    expect(rows.flatMap((row) => row.flags).sort()).toEqual(
      Object.keys(CLI_FLAGS)
        .filter((flag) => flag !== "help")
        .map((flag) => `--${flag}`)
        .sort(),
    );
  });

  it("gives each flag to the option it sets, and no other", () => {
    // A value of the kind the table's placeholder names: N a whole number, X a number, H a host, F a file, R a rate
    // (R/S: requests per seconds), D a date.
    const sample = { N: "7", X: "0.5", H: "localhost", F: "state.json", R: "10/60", D: "+40d" } as Record<
      string,
      string
    >;
    for (const { option, flags } of rows)
      for (const flag of flags) {
        const placeholder = new RegExp(`${flag} ([A-Z])\\b`).exec(PAGE)?.[1];
        const argv =
          CLI_FLAGS[flag.slice(2) as keyof typeof CLI_FLAGS].type === "string"
            ? [flag, sample[placeholder!]!]
            : [flag];
        const parsed = parseCliArgs(argv) as Record<string, unknown>;
        const changed = Object.keys({ ...parsed, ...cliDefaults }).filter(
          (key) => JSON.stringify(parsed[key]) !== JSON.stringify(cliDefaults[key]),
        );
        expect({ flag, changed }).toEqual({ flag, changed: [option] });
      }
  });

  it("gives each option's default as the code applies it", () => {
    const resolved = resolveOptions({}) as Record<string, unknown>;
    for (const { option, defaults } of rows) {
      const literal = /^`([^`]+)`/.exec(defaults)?.[1];
      let documented: unknown;
      if (literal !== undefined) {
        try {
          documented = JSON.parse(literal);
        } catch {
          documented = literal; // a bare word: a string (127.0.0.1)
        }
      } else if (/^off\b/.test(defaults)) documented = false;
      else if (/^(none|real clock)\b/.test(defaults)) documented = undefined;
      else
        throw new Error(
          `${option}: the default "${defaults}" is neither a literal nor off, none or real clock`,
        );
      expect({ option, default: resolved[option] }).toEqual({ option, default: documented });
    }
  });
});

describe("docs/emulator.md's Endpoints list", () => {
  async function emulatorRoutes(): Promise<string[]> {
    const app = await buildEmulator({ control: true });
    try {
      return await registeredRoutes(app);
    } finally {
      await app.close();
    }
  }

  const rows = listItems("Endpoints").map(([id, methodAndPath]) => {
    const routes: string[] = [];
    let path = "";
    for (const span of spans(methodAndPath!)) {
      const match = /^(GET|PUT|POST|DELETE)(?: (\/\S*))?$/.exec(span);
      if (!match) continue;
      // A method alone (R16's `GET`) is another method on the path before it; matrix parameters are no path.
      if (match[2]) path = `/r${match[2].replace(/;.*$/, "").replace(/\{(\w+)\}/g, ":$1")}`;
      routes.push(`${match[1]} ${path}`);
    }
    return { id: id!, routes };
  });

  it("has a row for each endpoint of the contract, with its method and path first", () => {
    expect(rows.map((row) => [row.id, row.routes[0]])).toEqual(
      Object.values(ENDPOINTS).map((e) => [e.id, `${e.method} /r${e.path.replace(/\{(\w+)\}/g, ":$1")}`]),
    );
  });

  it("lists exactly the routes the emulator registers under /r", async () => {
    // Besides the API's own description (GET /r/openapi.json, under "The OpenAPI descriptions").
    const registered = (await emulatorRoutes()).filter(
      (route) => route.includes(" /r/") && route !== "GET /r/openapi.json",
    );
    expect(registered.length).toBeGreaterThanOrEqual(Object.keys(ENDPOINTS).length);
    expect(rows.flatMap((row) => row.routes).sort()).toEqual(registered.sort());
  });
});
