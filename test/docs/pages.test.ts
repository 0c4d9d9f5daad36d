// Pages meant to be read through stay short enough to be (issue 29): a newcomer's map of the house, the current
// benchmark figures, the README. What a page outgrows goes beside the code it explains (a folder's README.md), and
// history stays in git. And every link between the repository's pages leads somewhere: a moved section or page
// leaves no dead link behind.
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, documentationFiles } from "./support/code-blocks";

const KB = 1024;
const LIMITS: Array<[file: string, bytes: number]> = [
  ["README.md", 12 * KB],
  ["CONTRIBUTING.md", 20 * KB],
  ["docs/benchmarks.md", 15 * KB],
];

describe("pages read through", () => {
  it.each(LIMITS)("%s is at most %d bytes", (file, bytes) => {
    expect(fs.statSync(path.join(REPO_ROOT, file)).size).toBeLessThanOrEqual(bytes);
  });
});

/** Every README.md of the repository outside dependencies, generated SDKs and build output. */
function folderReadmes(dir = ""): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory())
      return ["node_modules", "dist", "sdk", ".git"].includes(entry.name) || entry.name.startsWith(".")
        ? []
        : folderReadmes(file);
    return entry.name === "README.md" && dir !== "" ? [file] : [];
  });
}

const withoutCode = (text: string): string => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, -1 for a repeat. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug);
    anchors.add(count === undefined ? slug : `${slug}-${count + 1}`);
    seen.set(slug, (count ?? -1) + 1);
  }
  return anchors;
}

describe("links between the repository's pages", () => {
  const pages = [...documentationFiles(), "CONTRIBUTING.md", ...folderReadmes()];

  it("finds the pages: README, CONTRIBUTING, docs/ and the folders' READMEs", () => {
    expect(pages).toEqual(
      expect.arrayContaining(["README.md", "CONTRIBUTING.md", "docs/vps.md", "test/README.md"]),
    );
  });

  it("lead to a file that exists and, for a page, to a heading it has", () => {
    const dead: string[] = [];
    for (const page of pages) {
      const text = withoutCode(fs.readFileSync(path.join(REPO_ROOT, page), "utf8"));
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(target!)) continue; // https:, mailto:, …
        const [file, anchor] = target!.split("#");
        const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
        const absolute = path.join(REPO_ROOT, resolved);
        if (!fs.existsSync(absolute)) dead.push(`${page}: ${target} (no file ${resolved})`);
        else if (
          anchor &&
          resolved.endsWith(".md") &&
          !headingAnchors(fs.readFileSync(absolute, "utf8")).has(anchor)
        )
          dead.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("anchors headings as GitHub does", () => {
    const anchors = headingAnchors("# A `Vps` (dynamic)\n## Same\n## Same\n```\n# not a heading\n```\n");
    expect([...anchors]).toEqual(["a-vps-dynamic", "same", "same-1"]);
  });
});

// Issue 56: no registry holds the packages yet, so a page that gives a registry's install line (which fails today)
// gives, in its shown text, the route from the release beside it, or links to the install page's section that does;
// an HTML comment is not shown, so a route there does not count. test/engine/first-hour-release.test.ts and
// test/package/readme.test.ts run the release routes.
const RELEASE = "https://github.com/pulumi-rimuhosting/pulumi-rimuhosting/releases/download/v<version>/";
const FROM_RELEASE_SECTION = "installation-configuration.md#until-the-registries-hold-the-packages";
const REGISTRY_ROUTES: Array<{ registry: RegExp; release: string[] }> = [
  {
    // the dynamic package from npm's registry (not a file or URL)
    registry: /npm install(?: @pulumi\/pulumi)? pulumi-rimuhosting\b(?!-)/,
    release: [`--allow-remote=root ${RELEASE}pulumi-rimuhosting-<version>.tgz`],
  },
  {
    registry: /npm install[^\n`]* @pulumi-rimuhosting\/rimuhosting/,
    release: [
      `--allow-remote=root ${RELEASE}pulumi-rimuhosting-rimuhosting-<version>.tgz`,
      FROM_RELEASE_SECTION,
    ],
  },
  {
    registry: /pip install (?:pulumi-rimuhosting\b|-r requirements\.txt)/,
    release: [`pip install ${RELEASE}pulumi_rimuhosting-<version>-py3-none-any.whl`, FROM_RELEASE_SECTION],
  },
  {
    registry: /go get github\.com\/pulumi-rimuhosting\/pulumi-rimuhosting\/sdk/,
    release: ["-replace=github.com/pulumi-rimuhosting/pulumi-rimuhosting/sdk=", FROM_RELEASE_SECTION],
  },
];

/** What a reader sees of a page: its text without HTML comments. */
const shown = (markdown: string): string => markdown.replace(/<!--[\s\S]*?-->/g, "");

/** The registry routes `markdown` gives without a release route beside them, as their patterns. */
function registryOnlyRoutes(markdown: string): string[] {
  const text = shown(markdown);
  return REGISTRY_ROUTES.filter(
    ({ registry, release }) => registry.test(text) && !release.some((route) => text.includes(route)),
  ).map(({ registry }) => registry.source);
}

describe("install routes while no registry holds the packages", () => {
  it.each(documentationFiles())("%s gives no registry-only install route", (file) => {
    expect(registryOnlyRoutes(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"))).toEqual([]);
  });

  it("counts a release route in the shown text, not in a comment", () => {
    const pip = "```bash\npip install pulumi-rimuhosting\n```\n";
    const route = `pip install ${RELEASE}pulumi_rimuhosting-<version>-py3-none-any.whl`;
    expect(registryOnlyRoutes(pip)).toHaveLength(1);
    expect(registryOnlyRoutes(`${pip}<!-- ${route} -->\n`)).toHaveLength(1);
    expect(registryOnlyRoutes(`${pip}\`${route}\`\n`)).toEqual([]);
  });
});

// The CLI the tests build has one source of truth, PINNED_CLI_VERSION in scripts/pulumi-cli.sh; the pages that tell
// a reader which CLI the tests run name that release, so moving the pin without them fails here. Records of a
// measurement (docs/benchmarks.md, test/cpu-budgets.json) keep the CLI they were measured with.
const PINNED_CLI = /^PINNED_CLI_VERSION=(\d+\.\d+\.\d+)$/m.exec(
  fs.readFileSync(path.join(REPO_ROOT, "scripts/pulumi-cli.sh"), "utf8"),
)?.[1];
const NAMES_TESTED_CLI: Array<[file: string, sentence: string]> = [
  ["docs/language-requirements.md", "Our tests run Pulumi CLI **v{cli}**."],
  ["docs/testing.md", "through the Pulumi CLI (v{cli}), against the emulator"],
  ["docs/testing.md", "The tests build the Pulumi CLI, v{cli}, from the Go module proxy"],
  ["docs/troubleshooting.md", "tested through the real Pulumi CLI v{cli} (the newest"],
  ["docs/resource-options.md", "(v{cli}) against the emulator"],
  ["docs/installation-configuration.md", "What CLI v{cli} needs for it"],
  ["docs/installation-configuration.md", "the CLI this\nproject builds (v{cli}) has error hooks"],
  ["CONTRIBUTING.md", "serves the CLI up to v{cli}"],
  ["scripts/README.md", "at a pinned release, **v{cli}**"],
  ["scripts/README.md", "against the CLI's release (v{cli})"],
  ["tools/gen-sdk/README.md", "older than the CLI the tests build, v{cli};"],
];

describe("the CLI the tests run, as the pages name it", () => {
  it("is read from scripts/pulumi-cli.sh", () => {
    expect(PINNED_CLI).toMatch(/^3\.\d+\.\d+$/);
  });

  it.each(NAMES_TESTED_CLI)("%s names it: %j", (file, sentence) => {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), "utf8").replace(/\s+/g, " ");
    expect(text).toContain(sentence.replace("{cli}", PINNED_CLI!).replace(/\s+/g, " "));
  });
});
