// A copy of an example program with pulumi-rimuhosting laid out as `npm install` lays it out: a real directory
// in node_modules (package.json and dist/), and @pulumi/pulumi a real directory beside it (the closure serializer
// reads this package's `exports` by resolving it from the SDK's own directory: from a link into the repository it
// finds the repository instead, and names the shim by its path, not by `./shim`), every other package linked
// from the repository's node_modules. The
// repository itself links the package to its own checkout (`"pulumi-rimuhosting": "file:."`), and Pulumi serializes
// the provider differently for a linked package (docs/dynamic-providers.md §3): what users' states hold is measured
// only from an installed one. Needs `npm run build` first.
import * as fs from "node:fs";
import * as path from "node:path";

const REPO = [path.resolve(__dirname, "..", ".."), path.resolve(__dirname, "..", "..", "..")].find((dir) =>
  fs.existsSync(path.join(dir, "package.json")),
)!;

/**
 * Copies `programDir` (its files, not its node_modules) to `targetDir` and gives it the installed layout.
 * Returns `targetDir`.
 */
export function installedProgram(programDir: string, targetDir: string): string {
  fs.mkdirSync(targetDir, { recursive: true });
  for (const entry of fs.readdirSync(programDir)) {
    if (entry === "node_modules" || (entry.startsWith("Pulumi.") && entry !== "Pulumi.yaml")) continue;
    fs.cpSync(path.join(programDir, entry), path.join(targetDir, entry), { recursive: true });
  }
  const modules = path.join(targetDir, "node_modules");
  fs.mkdirSync(modules, { recursive: true });
  for (const entry of fs.readdirSync(path.join(REPO, "node_modules"))) {
    if (entry === "pulumi-rimuhosting") continue;
    if (entry === "@pulumi") {
      fs.cpSync(path.join(REPO, "node_modules", entry), path.join(modules, entry), { recursive: true });
      continue;
    }
    fs.symlinkSync(path.join(REPO, "node_modules", entry), path.join(modules, entry));
  }
  // What `npm pack` would put in the package (package.json's "files"), less what it adds by itself.
  const pkg = path.join(modules, "pulumi-rimuhosting");
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
    files: string[];
  };
  fs.mkdirSync(pkg);
  fs.copyFileSync(path.join(REPO, "package.json"), path.join(pkg, "package.json"));
  for (const entry of manifest.files.filter((f) => f.startsWith("dist/")))
    fs.cpSync(path.join(REPO, entry), path.join(pkg, entry), { recursive: true });
  return targetDir;
}
