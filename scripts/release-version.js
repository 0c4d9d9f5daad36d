#!/usr/bin/env node
/**
 * The release the repository is ready to make: prints its tag, `v<package.json version>`, after checking that
 * CHANGELOG.md's first version section is that version's. With `--notes <file>`, writes that section (the release
 * notes) to the file. Exits 1 with a message when package.json and CHANGELOG.md disagree.
 *
 * The release workflow (.github/workflows/release.yml) runs it before it creates the tag; test/package/release.test.ts
 * runs it on the checkout, so a version bump without its CHANGELOG section (or the reverse) fails the tests.
 *
 *   node scripts/release-version.js [--root <dir>] [--notes <file>]
 */
const fs = require("node:fs");
const path = require("node:path");

function option(name) {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

const root = path.resolve(option("--root") ?? path.join(__dirname, ".."));
const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
const changelog = fs.readFileSync(path.join(root, "CHANGELOG.md"), "utf8").split("\n");

const headings = changelog.flatMap((line, at) => (/^## \[/.test(line) ? [at] : []));
if (headings.length === 0) fail("CHANGELOG.md has no `## [<version>]` section");
const first = changelog[headings[0]];
if (!first.startsWith(`## [${version}]`)) {
  fail(
    `CHANGELOG.md's first section is "${first}", but package.json's version is ${version}: the changes on main ` +
      `belong under "## [${version}]" (the release this version will be), and a new version starts a new section`,
  );
}
const notes = changelog
  .slice(headings[0] + 1, headings[1] ?? changelog.length)
  .join("\n")
  .trim();
if (notes === "") fail(`CHANGELOG.md's section for ${version} is empty`);

const notesFile = option("--notes");
if (notesFile) fs.writeFileSync(notesFile, notes + "\n");
console.log(`v${version}`);

function fail(message) {
  console.error(`release-version: ${message}`);
  process.exit(1);
}
