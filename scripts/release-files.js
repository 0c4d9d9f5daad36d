#!/usr/bin/env node
/**
 * What the release workflow (.github/workflows/release.yml) does with the files `npm run release:build` wrote into
 * dist/release. Every command first checks that directory against its SHA256SUMS (every file listed, every hash
 * right, nothing listed missing; SHA256SUMS.sig, its signature, is the one file it does not list) and that it
 * holds this version's packages: the plugin tarball of each of the five platforms
 * (`pulumi-resource-rimuhosting-v<version>-<os>-<arch>.tar.gz`), the npm tarballs of the provider and of the Node.js
 * SDK (sdk/nodejs), the Python SDK's wheel and sdist (sdk/python), the Java SDK's jar, sources jar and pom
 * (sdk/java, `<artifactId>-<version>.jar`, `-sources.jar`, `.pom`: attached to the GitHub release, no registry's
 * package yet), and the policy pack (`rimuhosting-policy-pack-<version>.tar.gz`). Names and versions come from
 * package.json, sdk/nodejs/package.json, sdk/python/pyproject.toml and sdk/java/pom.xml, so a package that was not
 * built, or built at another version, stops the release before anything is published.
 *
 *   node scripts/release-files.js [--dir <dist/release>] [--root <repo>] check
 *   ... github          every file to attach to the GitHub release: SHA256SUMS, SHA256SUMS.sig and each file listed
 *   ... npm             `<name>@<version> <tarball>` per npm package: the provider, then the Node.js SDK
 *   ... pypi <outDir>   copies the wheel and the sdist into <outDir> (the PyPI action's packages-dir)
 *
 * Exits 1 with a message naming the file and what is wrong. test/package/release.test.ts runs it.
 */
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");

const PLUGIN = "pulumi-resource-rimuhosting";
/** The platforms of a release (tools/release/node-binaries.ts's TARGETS; test/package/release.test.ts holds them equal). */
const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"];
const SIGNATURE = "SHA256SUMS.sig";

function option(name) {
  const at = process.argv.indexOf(name);
  if (at < 0) return undefined;
  const value = process.argv[at + 1];
  process.argv.splice(at, 2);
  return value;
}

function fail(message) {
  console.error(`release-files: ${message}`);
  process.exit(1);
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"));
/** The file name `npm pack` gives a package: `@scope/name` becomes `scope-name`. */
const npmTarball = (name, version) => `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** sdk/python/pyproject.toml's [project] name and version (the two lines codegen writes). */
function pythonProject(root) {
  const text = fs.readFileSync(path.join(root, "sdk/python/pyproject.toml"), "utf8");
  const field = (key) => text.match(new RegExp(`^\\s*${key}\\s*=\\s*"([^"]+)"`, "m"))?.[1];
  const name = field("name");
  const version = field("version");
  if (!name || !version) fail("sdk/python/pyproject.toml names no project name and version");
  // Distribution file names use the normalized name with underscores (PEP 427, PEP 625).
  return { name: name.toLowerCase().replace(/[-_.]+/g, "_"), version };
}

/** sdk/java/pom.xml's own artifactId and version (before its dependencies, as gen-sdk writes it). */
function javaProject(root) {
  const text = fs.readFileSync(path.join(root, "sdk/java/pom.xml"), "utf8");
  const head = text.slice(0, text.indexOf("<dependencies>"));
  const field = (name) => head.match(new RegExp(`<${name}>([^<]+)</${name}>`))?.[1];
  const artifactId = field("artifactId");
  const version = field("version");
  if (!artifactId || !version) fail("sdk/java/pom.xml names no artifactId and version");
  return { artifactId, version };
}

/** The release's files, checked, by what the workflow does with them. */
function releaseFiles(dir, root) {
  const sumsFile = path.join(dir, "SHA256SUMS");
  if (!fs.existsSync(sumsFile)) fail(`${sumsFile} is missing: run \`npm run release:build\` first`);
  const listed = new Map();
  for (const line of fs.readFileSync(sumsFile, "utf8").split("\n").filter(Boolean)) {
    const match = line.match(/^([0-9a-f]{64}) [ *](.+)$/);
    if (!match || match[2].includes("/"))
      fail(`SHA256SUMS has a line that is not "<sha256>  <file>": ${line}`);
    listed.set(match[2], match[1]);
  }
  const present = fs.readdirSync(dir).filter((f) => f !== "SHA256SUMS" && f !== SIGNATURE);
  for (const file of present) {
    if (!listed.has(file)) fail(`${file} is in ${dir} but not in its SHA256SUMS`);
  }
  for (const [file, sum] of listed) {
    const at = path.join(dir, file);
    if (!fs.existsSync(at)) fail(`SHA256SUMS lists ${file}, which is not in ${dir}`);
    const actual = crypto.createHash("sha256").update(fs.readFileSync(at)).digest("hex");
    if (actual !== sum) fail(`${file}'s SHA-256 is ${actual}, not ${sum} as SHA256SUMS says`);
  }

  const version = readJson(path.join(root, "package.json")).version;
  const need = (file, what) => {
    if (!listed.has(file)) fail(`${dir} has no ${file} (${what}): run \`npm run release:build\``);
    return path.join(dir, file);
  };

  const plugins = [...listed.keys()].filter((f) => f.startsWith(`${PLUGIN}-v`)).sort();
  const pluginName = new RegExp(`^${escape(`${PLUGIN}-v${version}-`)}[a-z0-9]+-[a-z0-9]+\\.tar\\.gz$`);
  for (const file of plugins) {
    if (!pluginName.test(file))
      fail(`${file} is not a plugin tarball of ${version} (${PLUGIN}-v${version}-<os>-<arch>.tar.gz)`);
  }
  const missing = PLATFORMS.filter((p) => !listed.has(`${PLUGIN}-v${version}-${p}.tar.gz`));
  if (missing.length > 0) {
    fail(
      `${dir} has no plugin tarball for ${missing.join(", ")} (${PLUGIN}-v${version}-<os>-<arch>.tar.gz): ` +
        `a release ships all ${PLATFORMS.length} platforms`,
    );
  }

  const npm = [];
  for (const [manifestPath, what] of [
    ["package.json", "the provider's npm package"],
    ["sdk/nodejs/package.json", "the Node.js SDK's npm package"],
  ]) {
    const manifest = readJson(path.join(root, manifestPath));
    if (manifest.version !== version) {
      fail(
        `${manifestPath} is version ${manifest.version}, not the release's ${version}: run \`npm run sdk\``,
      );
    }
    npm.push({ spec: `${manifest.name}@${version}`, file: need(npmTarball(manifest.name, version), what) });
  }

  // The policy pack (tools/release/policy-pack.ts): attached to the GitHub release only, no registry's package.
  need(`rimuhosting-policy-pack-${version}.tar.gz`, "the policy pack");

  const python = pythonProject(root);
  if (python.version !== version) {
    fail(
      `sdk/python/pyproject.toml is version ${python.version}, not the release's ${version}: run \`npm run sdk\``,
    );
  }
  const prefix = `${python.name}-${python.version}`;
  const wheels = [...listed.keys()].filter((f) => f.startsWith(`${prefix}-`) && f.endsWith(".whl"));
  if (wheels.length !== 1)
    fail(`${dir} should hold one wheel ${prefix}-*.whl (the Python SDK), not ${wheels.length}`);
  const pypi = [path.join(dir, wheels[0]), need(`${prefix}.tar.gz`, "the Python SDK's sdist")];

  const java = javaProject(root);
  if (java.version !== version) {
    fail(`sdk/java/pom.xml is version ${java.version}, not the release's ${version}: run \`npm run sdk\``);
  }
  const javaName = `${java.artifactId}-${java.version}`;
  const maven = [
    need(`${javaName}.jar`, "the Java SDK's jar"),
    need(`${javaName}-sources.jar`, "the Java SDK's sources jar"),
    need(`${javaName}.pom`, "the Java SDK's pom"),
  ];

  const signature = fs.existsSync(path.join(dir, SIGNATURE)) ? [path.join(dir, SIGNATURE)] : [];
  const github = [sumsFile, ...signature, ...[...listed.keys()].sort().map((f) => path.join(dir, f))];
  return { plugins, npm, pypi, maven, github };
}

const dir = path.resolve(option("--dir") ?? path.join(__dirname, "..", "dist/release"));
const root = path.resolve(option("--root") ?? path.join(__dirname, ".."));
const [command, outDir] = process.argv.slice(2);
const usage =
  "usage: node scripts/release-files.js [--dir <dir>] [--root <repo>] check | github | npm | pypi <outDir>";
if (!["check", "github", "npm", "pypi"].includes(command)) fail(usage);

const files = releaseFiles(dir, root);
if (command === "check") {
  console.log(
    `${path.relative(process.cwd(), dir) || "."}: SHA256SUMS checked; ${files.plugins.length} plugin tarballs, ` +
      `npm ${files.npm.map((p) => p.spec).join(" and ")}, PyPI ${files.pypi.map((f) => path.basename(f)).join(" and ")}, ` +
      `Maven ${files.maven.map((f) => path.basename(f)).join(", ")}`,
  );
} else if (command === "github") {
  for (const file of files.github) console.log(file);
} else if (command === "npm") {
  for (const { spec, file } of files.npm) console.log(`${spec} ${file}`);
} else {
  if (!outDir) fail(usage);
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of files.pypi) {
    fs.copyFileSync(file, path.join(outDir, path.basename(file)));
    console.log(path.join(outDir, path.basename(file)));
  }
}
