/**
 * Every code block of the user documentation says what becomes of it (test/docs/support/code-blocks.ts): a recipe
 * that a test runs, or why it is not run. A new block without a marker, a recipe no test runs, or a test that asks
 * for a recipe the pages no longer have, fails here.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, codeBlocks, documentationFiles, recipe } from "./support/code-blocks";

/** The test sources, where each recipe is asked for by its address ("docs/testing.md#program"). */
function testSources(dir = path.join(REPO_ROOT, "test")): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testSources(full);
    return entry.name.endsWith(".ts") ? [fs.readFileSync(full, "utf8")] : [];
  });
}

const blocks = documentationFiles().flatMap((file) => codeBlocks(file));

describe("the code blocks of README.md and docs/", () => {
  it("are found (the parser sees the fences)", () => {
    expect(blocks.filter((b) => b.file === "README.md").length).toBeGreaterThanOrEqual(5);
    expect(blocks.length).toBeGreaterThan(20);
  });

  it("each carries a marker: <!-- recipe: id -->, <!-- example: path --> or <!-- not run: why -->", () => {
    const unmarked = blocks.filter((b) => !b.marker).map((b) => `${b.file}:${b.line}`);
    expect(unmarked).toEqual([]);
    const reasonless = blocks.filter((b) => b.marker?.kind === "not run" && b.marker.reason.length < 10);
    expect(reasonless.map((b) => `${b.file}:${b.line}`)).toEqual([]);
  });

  it("each recipe id is used once per file, and a test runs it", () => {
    const addresses = blocks.flatMap((b) =>
      b.marker?.kind === "recipe" ? [`${b.file}#${b.marker.id}`] : [],
    );
    expect(addresses.filter((a, i) => addresses.indexOf(a) !== i)).toEqual([]);
    const sources = testSources().join("\n");
    expect(addresses.filter((address) => !sources.includes(`"${address}"`))).toEqual([]);
  });

  it("each example is the file it names, word for word, and the file is an example program", () => {
    const examples = blocks.flatMap((b) =>
      b.marker?.kind === "example" ? [{ ...b, path: b.marker.file }] : [],
    );
    expect(examples.length).toBeGreaterThanOrEqual(4);
    // A file of an example's directory, at any depth (the YAML quickstart's package declaration is in sdks/).
    const outside = examples.filter(
      (b) => !/^examples\/[\w-]+\/([\w.-]+\/)*[\w.-]+$/.test(b.path) || b.path.includes(".."),
    );
    expect(outside.map((b) => `${b.file}:${b.line} ${b.path}`)).toEqual([]);
    const differing = examples.filter((b) => {
      const file = path.join(REPO_ROOT, b.path);
      return !fs.existsSync(file) || fs.readFileSync(file, "utf8") !== b.text;
    });
    expect(differing.map((b) => `${b.file}:${b.line} is not ${b.path}`)).toEqual([]);
  });

  it("every recipe a test asks for exists", () => {
    const asked = new Set(
      testSources().flatMap((text) =>
        [...text.matchAll(/"((?:README\.md|docs\/[\w-]+\.md)#[\w-]+)"/g)].map((m) => m[1]!),
      ),
    );
    expect(asked.size).toBeGreaterThan(10);
    const missing = [...asked].filter((address) => {
      try {
        recipe(address);
        return false;
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });

  it("a marker is read from the line above the fence, and a block without one is reported", () => {
    const page = [
      "Text.",
      "",
      "<!-- recipe: demo -->",
      "",
      "```bash",
      "echo hi",
      "```",
      "",
      "```",
      "out",
      "```",
    ];
    page.push("<!-- example: examples/x/main.go -->", "```go", "package main", "```");
    const found = codeBlocks("page.md", page.join("\n"));
    expect(found).toEqual([
      { file: "page.md", line: 5, lang: "bash", text: "echo hi\n", marker: { kind: "recipe", id: "demo" } },
      { file: "page.md", line: 9, lang: "", text: "out\n", marker: undefined },
      {
        file: "page.md",
        line: 13,
        lang: "go",
        text: "package main\n",
        marker: { kind: "example", file: "examples/x/main.go" },
      },
    ]);
  });
});

describe("README.md", () => {
  it("keeps the order a new user reads it in: install, emulator, configure, quickstart, pulumi up, reference", () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    const order = ["Install", "Start the emulator", "Configure", "Quickstart", "`pulumi up`", "Reference"];
    expect(headings.filter((h) => order.includes(h))).toEqual(order);
    // The two commands for a checkout come first, before any section.
    expect(readme.indexOf("npm ci && npm run demo")).toBeLessThan(readme.indexOf("\n## "));
  });
});
